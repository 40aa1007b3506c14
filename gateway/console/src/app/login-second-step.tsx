import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { answer, platform } from '../shell/api.ts';
import { useT } from '../shell/i18n.tsx';
import { PageTitle } from '../ui/page-title.tsx';
import { ErrorAlert } from '../ui/error-alert.tsx';
import { CodeInput } from '../features/second-factor/code-input.tsx';
import { EnrolmentView } from '../features/second-factor/enrolment-view.tsx';
import { secondFactorMessages } from '../features/second-factor/messages.ts';
import { RecoveryCodesOnce } from '../features/second-factor/recovery-codes-once.tsx';
import type { SecondFactorChallenge } from './auth-provider.ts';
import { safeReturnPath } from './return-path.ts';
import { ensureMe, ME_KEY } from './session.ts';

/**
 * The login's second step (`POST /api/auth/console-login/second-factor`,
 * docs/adr/0127-a-second-factor-for-password-logins.md): the authenticator's code, or a recovery
 * code; for a user its account makes enrol, the QR code first and, once the code confirms it, the
 * recovery codes shown once. Then the page the user came from, as after a login.
 */
export function LoginSecondStep({ challenge, to, onStartOver }: { challenge: SecondFactorChallenge; to: string | undefined; onStartOver: () => void }) {
  const t = useT(secondFactorMessages);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const id = useId();
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [recoveryCode, setRecoveryCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [codes, setCodes] = useState<string[]>();
  const enrol = challenge.secondFactor === 'enrol';

  const enter = async () => {
    queryClient.removeQueries({ queryKey: ME_KEY });
    await ensureMe(queryClient);
    void navigate(safeReturnPath(to));
  };

  if (codes) return <RecoveryCodesOnce codes={codes} onDone={() => void enter()} />;
  return (
    <>
      <PageTitle title={t('stepTitle')}>{t('stepTitle')}</PageTitle>
      <form
        className="login-form"
        onSubmit={async (event) => {
          event.preventDefault();
          setBusy(true);
          setError(null);
          try {
            const body = useRecovery ? { challenge: challenge.challenge, recoveryCode } : { challenge: challenge.challenge, code };
            const done = await answer(platform.POST('/api/auth/console-login/second-factor', { body }));
            if (done.recoveryCodes?.length) setCodes(done.recoveryCodes);
            else await enter();
          } catch (failure) {
            setError(failure);
          } finally {
            setBusy(false);
          }
        }}
      >
        <p>{enrol ? t('enrolIntro') : t('stepIntro')}</p>
        {enrol && challenge.enrolment ? <EnrolmentView enrolment={challenge.enrolment} /> : null}
        {useRecovery ? (
          <div className="form-row">
            <label htmlFor={`${id}-recovery`}>{t('recoveryCode')}</label>
            <input id={`${id}-recovery`} autoComplete="off" required value={recoveryCode} onChange={(event) => setRecoveryCode(event.target.value)} />
          </div>
        ) : (
          <CodeInput label={t('code')} value={code} onChange={setCode} />
        )}
        <ErrorAlert error={error} />
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            {busy ? t('verifying') : t('verify')}
          </button>
          {enrol ? null : (
            <button type="button" onClick={() => setUseRecovery(!useRecovery)}>
              {useRecovery ? t('useCode') : t('useRecovery')}
            </button>
          )}
          <button type="button" onClick={onStartOver}>
            {t('startOver')}
          </button>
        </div>
      </form>
    </>
  );
}
