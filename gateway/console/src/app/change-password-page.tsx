import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { answer, platform } from '../shell/api.ts';
import { useT } from '../shell/i18n.tsx';
import { PageTitle } from '../ui/page-title.tsx';
import { ErrorAlert } from '../ui/error-alert.tsx';
import { shellMessages } from './messages.ts';

/**
 * A new password (`POST /api/auth/change-password`): the change ends every token of the user
 * (docs/interface.md#token-and-cookie), so the user logs in again with it.
 */
export default function ChangePasswordPage() {
  const t = useT(shellMessages);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const id = useId();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const fields = [
    { name: 'current', label: t('currentPassword'), value: current, set: setCurrent, autoComplete: 'current-password' },
    { name: 'new', label: t('newPassword'), value: next, set: setNext, autoComplete: 'new-password' },
    { name: 'again', label: t('repeatPassword'), value: again, set: setAgain, autoComplete: 'new-password' },
  ];
  return (
    <>
      <PageTitle title={t('changePassword')}>{t('changePassword')}</PageTitle>
      <form
        className="record-form"
        onSubmit={async (event) => {
          event.preventDefault();
          if (next !== again) return setError(new Error(t('passwordsDiffer')));
          setBusy(true);
          setError(null);
          try {
            await answer(platform.POST('/api/auth/change-password', { body: { currentPassword: current, newPassword: next } }));
            await answer(platform.POST('/api/auth/logout')).catch(() => undefined);
            queryClient.clear();
            void navigate('/login?changed=1');
          } catch (failure) {
            setError(failure);
          } finally {
            setBusy(false);
          }
        }}
      >
        {fields.map((field) => (
          <div className="form-row" key={field.name}>
            <label htmlFor={`${id}-${field.name}`}>{field.label}</label>
            <input
              id={`${id}-${field.name}`}
              type="password"
              required
              autoComplete={field.autoComplete}
              value={field.value}
              onChange={(event) => field.set(event.target.value)}
            />
          </div>
        ))}
        <ErrorAlert error={error} />
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            {t('save')}
          </button>
        </div>
      </form>
    </>
  );
}
