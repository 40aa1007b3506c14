import { useState } from 'react';
import type { RecordActionsProps } from '../../extensions/types.ts';
import { answer, ApiError, platform } from '../../shell/api.ts';
import { useAccess } from '../../shell/access.tsx';
import { useT } from '../../shell/i18n.tsx';
import { Modal } from '../operations/modal.tsx';
import { secondFactorMessages } from './messages.ts';

/**
 * A user's "Reset second factor" on its page (user-info:write; the service decides the rest:
 * docs/adr/0129-a-second-factor-reset-by-the-tenant-s-administrator.md): asks first, then
 * POST /api/user-info/{id}/second-factor/reset, which the user's history records.
 */
export function ResetSecondFactor({ record, refresh }: RecordActionsProps) {
  const t = useT(secondFactorMessages);
  const { can } = useAccess();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<string>();
  if (!can('user-info:write')) return null;

  const reset = async () => {
    setBusy(true);
    try {
      await answer(platform.POST('/api/user-info/{id}/second-factor/reset', { params: { path: { id: Number(record.id) } } }));
      setOutcome(t('resetDone'));
      refresh();
    } catch (failure) {
      setOutcome(failure instanceof ApiError ? failure.message : String(failure));
    } finally {
      setAsking(false);
      setBusy(false);
    }
  };

  return (
    <>
      <button type="button" disabled={busy} onClick={() => setAsking(true)}>
        {t('reset')}
      </button>
      {outcome && <p role="status">{outcome}</p>}
      <Modal open={asking} title={t('resetTitle')} onClose={() => setAsking(false)}>
        <p>{t('resetWarning')}</p>
        <p>
          <button type="button" className="danger" disabled={busy} onClick={() => void reset()}>
            {t('confirmReset')}
          </button>{' '}
          <button type="button" onClick={() => setAsking(false)}>
            {t('back')}
          </button>
        </p>
      </Modal>
    </>
  );
}
