import { useEffect, useId, useState } from 'react';
import { answer, platform } from '../shell/api.ts';
import { ErrorAlert } from '../ui/error-alert.tsx';
import { useT } from '../shell/i18n.tsx';
import { returnPathOf } from './return-path.ts';
import { ssoMessages } from './sso-messages.ts';

interface SignInProvider {
  id: number;
  displayName: string;
}

/** Where the account number typed last is remembered, so that the next visit shows its providers at once. */
const ACCOUNT_KEY = 'platform.ssoAccount';

function rememberedAccount(fromAddress: string | null): string {
  if (fromAddress) return fromAddress;
  try {
    return localStorage.getItem(ACCOUNT_KEY) ?? '';
  } catch {
    return '';
  }
}

/**
 * Single sign-on on the login page (docs/interface.md#single-sign-on): the account number (from
 * `?account=`, else the one used last), the account's providers from the public list, and a
 * "Sign in with <name>" link each to the gateway's start of the code flow, which returns to `to`.
 * A refused sign-in comes back with `?sso=failed`, which it says. Plain links: the browser leaves the console for the provider and comes back signed in.
 */
export function SsoSignIn({ account, to, failed }: { account: string | null; to: string | null; failed: boolean }) {
  const t = useT(ssoMessages);
  const id = useId();
  const [accountNo, setAccountNo] = useState(() => rememberedAccount(account));
  const [providers, setProviders] = useState<SignInProvider[] | undefined>(undefined);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const find = async (number: string) => {
    if (number.trim() === '') return;
    setPending(true);
    setError(null);
    try {
      const listed = await answer(platform.GET('/api/auth/oidc/providers', { params: { query: { accountNo: number.trim() } } }));
      setProviders(listed.providers);
      try {
        localStorage.setItem(ACCOUNT_KEY, number.trim());
      } catch {
        // a browser without storage asks again next time
      }
    } catch (caught) {
      setError(caught);
    } finally {
      setPending(false);
    }
  };
  // an account named by the address or remembered: its providers at once
  useEffect(() => void find(accountNo), []);

  const returnTo = `/console${returnPathOf(to) ?? '/'}`;
  return (
    <section className="sso-sign-in" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('ssoTitle')}</h2>
      {failed ? (
        <p className="notice" role="alert">
          {t('ssoFailed')}
        </p>
      ) : null}
      <form
        className="login-form"
        onSubmit={(event) => {
          event.preventDefault();
          void find(accountNo);
        }}
      >
        <div className="form-row">
          <label htmlFor={`${id}-account`}>{t('ssoAccount')}</label>
          <input id={`${id}-account`} name="accountNo" autoComplete="organization" value={accountNo} onChange={(event) => setAccountNo(event.target.value)} />
        </div>
        <ErrorAlert error={error} />
        <div className="actions">
          <button type="submit" disabled={pending}>
            {pending ? t('ssoFinding') : t('ssoFind')}
          </button>
        </div>
      </form>
      {providers === undefined ? null : providers.length === 0 ? (
        <p className="notice">{t('ssoNone')}</p>
      ) : (
        <ul className="sso-providers">
          {providers.map((provider) => (
            <li key={provider.id}>
              <a className="button primary" href={`/api/auth/oidc/${provider.id}/start?returnTo=${encodeURIComponent(returnTo)}`}>
                {t('ssoSignInWith', { name: provider.displayName })}
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
