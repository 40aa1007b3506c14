import { useState } from 'react';
import type { RecordActionsProps } from '../../extensions/types.ts';
import { answer, ApiError, platform } from '../../shell/api.ts';
import { useAccess } from '../../shell/access.tsx';
import { useT } from '../../shell/i18n.tsx';
import { Modal } from '../operations/modal.tsx';
import { webhookMessages } from './messages.ts';
import { SecretOnce } from './secret-once.tsx';

/**
 * A subscription's "Rotate secret" (webhook-subscription:write): asks first (the receiver must
 * switch to the new secret), then POST /api/webhook-subscription/{id}/rotate-secret and shows the
 * new secret once. The record is reloaded when the secret is put away (its version rose).
 */
export function RotateSecret({ record, refresh }: RecordActionsProps) {
  const t = useT(webhookMessages);
  const { can } = useAccess();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [secret, setSecret] = useState<string>();
  const [error, setError] = useState<string>();
  if (!can('webhook-subscription:write')) return null;

  const rotate = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const rotated = await answer(platform.POST('/api/webhook-subscription/{id}/rotate-secret', { params: { path: { id: Number(record.id) } } }));
      setAsking(false);
      setSecret(rotated.secret ?? '');
    } catch (failure) {
      setAsking(false);
      setError(failure instanceof ApiError ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button type="button" disabled={busy} onClick={() => setAsking(true)}>
        {t('rotate')}
      </button>
      {error && <p role="alert">{error}</p>}
      <Modal open={asking} title={t('rotateTitle')} onClose={() => setAsking(false)}>
        <p>{t('rotateWarning')}</p>
        <p>
          <button type="button" className="danger" disabled={busy} onClick={() => void rotate()}>
            {busy ? t('working') : t('confirmRotate')}
          </button>{' '}
          <button type="button" onClick={() => setAsking(false)}>
            {t('back')}
          </button>
        </p>
      </Modal>
      <SecretOnce
        secret={secret}
        onClose={() => {
          setSecret(undefined);
          refresh();
        }}
      />
    </>
  );
}
