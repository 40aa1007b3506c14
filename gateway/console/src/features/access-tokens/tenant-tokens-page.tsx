import { answer, platform } from '../../shell/api.ts';
import { useAccess } from '../../shell/access.tsx';
import { useT } from '../../shell/i18n.tsx';
import { useLoad } from '../../shell/use-load.ts';
import { accessTokenMessages } from './messages.ts';
import { TokenTable } from './token-table.tsx';
import './access-tokens.css';

/**
 * The current tenant's personal access tokens, for who manages its users (user-info:write): every
 * user's, with last use, each revocable (GET /api/access-token/tenant).
 */
export function TenantTokensPage() {
  const t = useT(accessTokenMessages);
  const { me, can } = useAccess();
  const allowed = can('user-info:write');
  const tokens = useLoad(
    (signal) =>
      allowed ? answer(platform.GET('/api/access-token/tenant', { params: { query: { crProcessId: me.crProcessId } }, signal })) : Promise.resolve([]),
    [allowed, me.crProcessId],
  );
  return (
    <section className="access-tokens-page">
      <h1 tabIndex={-1}>{t('tenantTitle')}</h1>
      {allowed ? (
        <>
          <p>{t('tenantIntro')}</p>
          {tokens.error && <p role="alert">{tokens.error}</p>}
          {tokens.value ? <TokenTable tokens={tokens.value} showUser onChanged={tokens.reload} /> : <p>{t('loading')}</p>}
        </>
      ) : (
        <p role="alert">{t('adminOnly')}</p>
      )}
    </section>
  );
}
