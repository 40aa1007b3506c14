import { useState } from 'react';
import type { RecordActionsProps } from '../../extensions/types.ts';
import { answer, ApiError, platform } from '../../shell/api.ts';
import { useAccess } from '../../shell/access.tsx';
import { useT } from '../../shell/i18n.tsx';
import { webhookMessages } from './messages.ts';

/**
 * A delivery's "Redeliver" (webhook-delivery:write): POST /api/webhook-delivery/{id}/redeliver makes
 * it PENDING and due at once with the same webhook-id, whatever its state; the record is reloaded.
 */
export function Redeliver({ record, refresh }: RecordActionsProps) {
  const t = useT(webhookMessages);
  const { can } = useAccess();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string }>();
  if (!can('webhook-delivery:write')) return null;
  const id = String(record.id);
  const redeliver = async () => {
    setBusy(true);
    setMessage(undefined);
    try {
      await answer(platform.POST('/api/webhook-delivery/{id}/redeliver', { params: { path: { id: Number(record.id) } } }));
      setMessage({ ok: true, text: t('redelivered', { id }) });
      refresh();
    } catch (failure) {
      setMessage({ ok: false, text: failure instanceof ApiError ? failure.message : String(failure) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" disabled={busy} onClick={() => void redeliver()}>
        {busy ? t('working') : t('redeliver')}
      </button>
      {message && <p role={message.ok ? 'status' : 'alert'}>{message.text}</p>}
    </>
  );
}
