import { useState } from 'react';
import { answer, ApiError, platform } from '../../shell/api.ts';
import { useAccess } from '../../shell/access.tsx';
import { useT } from '../../shell/i18n.tsx';
import { useLoad } from '../../shell/use-load.ts';
import { ShownOnce } from '../../ui/shown-once.tsx';
import { accessTokenMessages } from './messages.ts';
import { TokenTable } from './token-table.tsx';
import './access-tokens.css';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A date input's value `days` from today. */
function dayFromNow(days: number): string {
  return new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * One's own personal access tokens (docs/interface.md#personal-access-tokens): the list with last use
 * and "Revoke", and a form for a new one in the current tenant: a name, an expiry (a year at most)
 * and the roles, picked from those the user holds there now; the new token is shown once.
 */
export function AccessTokensPage() {
  const t = useT(accessTokenMessages);
  const { me } = useAccess();
  const tokens = useLoad((signal) => answer(platform.GET('/api/access-token', { signal })), []);
  const [name, setName] = useState('');
  const [expires, setExpires] = useState(dayFromNow(30));
  const [roles, setRoles] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [shown, setShown] = useState<string>();

  const create = async () => {
    setBusy(true);
    setError(undefined);
    try {
      // the end of the chosen day in the browser's zone
      const expiresAt = new Date(`${expires}T23:59:59`).toISOString();
      const created = await answer(platform.POST('/api/access-token', { body: { name, expiresAt, crProcessId: me.crProcessId, roles: [...roles] } }));
      setShown(created.token);
      setName('');
      setRoles(new Set());
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : String(failure));
    } finally {
      setBusy(false);
      tokens.reload();
    }
  };

  return (
    <section className="access-tokens-page">
      <h1 tabIndex={-1}>{t('title')}</h1>
      <p>{t('intro')}</p>
      <form
        aria-label={t('newTitle')}
        onSubmit={(event) => {
          event.preventDefault();
          void create();
        }}
      >
        <h2>{t('newTitle')}</h2>
        <p>
          <label>
            {t('name')}
            <br />
            <input required maxLength={100} value={name} onChange={(event) => setName(event.target.value)} />
          </label>
        </p>
        <p>
          <label>
            {t('expiresAt')}
            <br />
            <input type="date" required min={dayFromNow(0)} max={dayFromNow(365)} value={expires} onChange={(event) => setExpires(event.target.value)} />
          </label>
        </p>
        <fieldset>
          <legend>{t('roles')}</legend>
          {me.roles.length === 0 && <p>{t('noRoles')}</p>}
          {me.roles.map((role) => (
            <label key={role} className="access-token-role">
              <input
                type="checkbox"
                checked={roles.has(role)}
                onChange={(event) => {
                  const next = new Set(roles);
                  if (event.target.checked) next.add(role);
                  else next.delete(role);
                  setRoles(next);
                }}
              />{' '}
              {role}
            </label>
          ))}
        </fieldset>
        {error && <p role="alert">{error}</p>}
        <p>
          <button type="submit" className="primary" disabled={busy || roles.size === 0 || name.trim() === ''}>
            {busy ? t('working') : t('create')}
          </button>
        </p>
      </form>
      {tokens.error && <p role="alert">{tokens.error}</p>}
      {tokens.value ? <TokenTable tokens={tokens.value} showUser={false} onChanged={tokens.reload} /> : <p>{t('loading')}</p>}
      <ShownOnce
        value={shown}
        words={{
          title: t('tokenTitle'),
          once: t('tokenOnce'),
          label: t('tokenLabel'),
          copy: t('copy'),
          copied: t('copied'),
          copyFailed: t('copyFailed'),
          done: t('done'),
        }}
        className="access-token-secret"
        size={60}
        onClose={() => setShown(undefined)}
      />
    </section>
  );
}
