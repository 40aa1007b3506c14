import { useContext, useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useLogin, useSetLocale } from '@refinedev/core';
import { LanguageContext, useT } from '../shell/i18n.tsx';
import type { Language } from '../shell/language.ts';
import { PageTitle } from '../ui/page-title.tsx';
import { ErrorAlert } from '../ui/error-alert.tsx';
import { useManifest } from '../resources/manifest.tsx';
import { shellMessages } from './messages.ts';
import { captchaToken, preloadCaptcha } from './captcha.ts';
import type { LoginInput, SecondFactorChallenge } from './auth-provider.ts';
import { LoginSecondStep } from './login-second-step.tsx';
import { SsoSignIn } from './sso-sign-in.tsx';

/**
 * The login (`POST /api/auth/console-login`): user code, password and language, a captcha token
 * when the platform asks for one; then the page the user came from (`?to=`), else the home page.
 */
export function LoginPage() {
  const t = useT(shellMessages);
  const language = useContext(LanguageContext);
  const setLocale = useSetLocale();
  const [params] = useSearchParams();
  const siteKey = useManifest().login.captchaSiteKey;
  const login = useLogin<LoginInput>();
  const id = useId();
  const [userCode, setUserCode] = useState('');
  const [password, setPassword] = useState('');
  const [captchaError, setCaptchaError] = useState<unknown>(null);
  useEffect(() => preloadCaptcha(siteKey), [siteKey]);
  const refused = login.data && !login.data.success ? login.data.error : undefined;
  // the password was right and a second factor is asked for (login-second-step.tsx)
  const challenge = login.data && !login.data.success ? (login.data.secondFactor as SecondFactorChallenge | undefined) : undefined;
  if (challenge)
    return (
      <main id="main" className="login-page">
        <LoginSecondStep challenge={challenge} to={params.get('to') ?? undefined} onStartOver={() => login.reset()} />
      </main>
    );

  return (
    <main id="main" className="login-page">
      <PageTitle title={t('loginTitle')}>{t('loginTitle')}</PageTitle>
      {params.get('ended') ? <p className="notice">{t('sessionEnded')}</p> : null}
      {params.get('changed') ? <p className="notice">{t('passwordChanged')}</p> : null}
      <form
        className="login-form"
        onSubmit={async (event) => {
          event.preventDefault();
          setCaptchaError(null);
          let token: string | undefined;
          try {
            token = await captchaToken(siteKey);
          } catch {
            setCaptchaError(new Error(t('captchaFailed')));
            return;
          }
          login.mutate({ userCode, password, languageCode: language, captchaToken: token, to: params.get('to') ?? undefined });
        }}
      >
        <div className="form-row">
          <label htmlFor={`${id}-user`}>{t('userCode')}</label>
          <input id={`${id}-user`} name="username" autoComplete="username" required value={userCode} onChange={(event) => setUserCode(event.target.value)} />
        </div>
        <div className="form-row">
          <label htmlFor={`${id}-password`}>{t('password')}</label>
          <input
            id={`${id}-password`}
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </div>
        <div className="form-row">
          <label htmlFor={`${id}-language`}>{t('language')}</label>
          <select id={`${id}-language`} value={language} onChange={(event) => setLocale(event.target.value as Language)}>
            <option value="en" lang="en">
              {t('english')}
            </option>
            <option value="tr" lang="tr">
              {t('turkish')}
            </option>
          </select>
        </div>
        <ErrorAlert error={refused ?? login.error ?? captchaError} />
        <div className="actions">
          <button type="submit" className="primary" disabled={login.isPending}>
            {login.isPending ? t('loggingIn') : t('logIn')}
          </button>
        </div>
      </form>
      <SsoSignIn account={params.get('account')} to={params.get('to')} failed={params.get('sso') === 'failed'} />
    </main>
  );
}
