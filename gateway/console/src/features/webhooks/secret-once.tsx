import { useState } from 'react';
import { useT } from '../../shell/i18n.tsx';
import { Modal } from '../operations/modal.tsx';
import { webhookMessages } from './messages.ts';

/**
 * A signing secret shown the one time the platform answers it (the create and rotate answers;
 * every read has `secret: null`): read-only in a field, a Copy button, and the warning that it will
 * not be shown again. Closing it is the user's "I have stored it".
 */
export function SecretOnce({ secret, onClose }: { secret: string | undefined; onClose: () => void }) {
  const t = useT(webhookMessages);
  const [copy, setCopy] = useState<'copied' | 'copyFailed'>();
  const close = () => {
    setCopy(undefined);
    onClose();
  };
  return (
    <Modal open={secret !== undefined} title={t('secretTitle')} onClose={close}>
      <p role="alert">{t('secretOnce')}</p>
      <p>
        <label>
          {t('secretLabel')}
          <br />
          <input className="webhook-secret" readOnly value={secret ?? ''} size={48} onFocus={(event) => event.target.select()} />
        </label>
      </p>
      <p>
        <button
          type="button"
          onClick={() => {
            navigator.clipboard.writeText(secret ?? '').then(
              () => setCopy('copied'),
              () => setCopy('copyFailed'),
            );
          }}
        >
          {t('copy')}
        </button>{' '}
        <button type="button" className="primary" onClick={close}>
          {t('done')}
        </button>
      </p>
      <p role="status">{copy ? t(copy) : ''}</p>
    </Modal>
  );
}
