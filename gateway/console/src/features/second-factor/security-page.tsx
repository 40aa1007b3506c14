import { useState } from 'react';
import { answer, platform } from '../../shell/api.ts';
import { useT } from '../../shell/i18n.tsx';
import { useLoad } from '../../shell/use-load.ts';
import { PageTitle } from '../../ui/page-title.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { CodeInput } from './code-input.tsx';
import { EnrolmentView, type Enrolment } from './enrolment-view.tsx';
import { secondFactorMessages } from './messages.ts';
import { RecoveryCodesOnce } from './recovery-codes-once.tsx';

type Pending = { kind: 'enrol'; enrolment: Enrolment } | { kind: 'regenerate' } | { kind: 'disable' };

/**
 * The user's own second factor (docs/adr/0127-a-second-factor-for-password-logins.md): set up an
 * authenticator by its QR code and confirm it with a code, then the recovery codes shown once; new
 * recovery codes, or the second factor turned off, each for a current code.
 */
export default function SecurityPage() {
  const t = useT(secondFactorMessages);
  const { value: status, error: loadError, reload } = useLoad((signal) => answer(platform.GET('/api/auth/second-factor', { signal })), []);
  const [pending, setPending] = useState<Pending>();
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<string[]>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const finish = (recoveryCodes?: string[]) => {
    setPending(undefined);
    setCode('');
    setCodes(recoveryCodes);
    reload();
  };

  return (
    <>
      <PageTitle title={t('securityTitle')}>{t('securityTitle')}</PageTitle>
      <ErrorAlert error={loadError} />
      {codes ? (
        <RecoveryCodesOnce codes={codes} onDone={() => setCodes(undefined)} />
      ) : !status ? (
        <p>{t('loading')}</p>
      ) : (
        <section className="record-form" aria-labelledby="second-factor-title">
          <h2 id="second-factor-title">{t('secondFactor')}</h2>
          <p role="status" data-enrolled={status.enrolled}>
            {status.enrolled ? t('on') : t('off')}
            {status.enrolled ? ` — ${t('codesLeft', { count: String(status.recoveryCodesLeft) })}` : ''}
          </p>
          {status.required ? <p>{t('required')}</p> : null}
          {pending ? (
            <form
              onSubmit={(event) => {
                event.preventDefault();
                void run(async () => {
                  const body = { body: { code } };
                  if (pending.kind === 'enrol') finish((await answer(platform.POST('/api/auth/second-factor/enrolment/confirm', body))).recoveryCodes);
                  else if (pending.kind === 'regenerate') finish((await answer(platform.POST('/api/auth/second-factor/recovery-codes', body))).recoveryCodes);
                  else {
                    await answer(platform.POST('/api/auth/second-factor/disable', body));
                    finish();
                  }
                });
              }}
            >
              {pending.kind === 'enrol' ? <EnrolmentView enrolment={pending.enrolment} /> : null}
              <CodeInput label={t('codeToProceed')} value={code} onChange={setCode} />
              <ErrorAlert error={error} />
              <div className="actions">
                <button type="submit" className={pending.kind === 'disable' ? 'danger' : 'primary'} disabled={busy}>
                  {pending.kind === 'enrol' ? t('confirm') : pending.kind === 'regenerate' ? t('regenerate') : t('disable')}
                </button>
                <button type="button" onClick={() => setPending(undefined)}>
                  {t('cancel')}
                </button>
              </div>
            </form>
          ) : (
            <div className="actions">
              {status.enrolled ? (
                <>
                  <button type="button" onClick={() => setPending({ kind: 'regenerate' })}>
                    {t('regenerate')}
                  </button>
                  <button type="button" className="danger" onClick={() => setPending({ kind: 'disable' })}>
                    {t('disable')}
                  </button>
                </>
              ) : (
                <button
                  type="button"
                  className="primary"
                  disabled={busy}
                  onClick={() =>
                    void run(async () => setPending({ kind: 'enrol', enrolment: await answer(platform.POST('/api/auth/second-factor/enrolment')) }))
                  }
                >
                  {t('setUp')}
                </button>
              )}
              <ErrorAlert error={error} />
            </div>
          )}
        </section>
      )}
    </>
  );
}
