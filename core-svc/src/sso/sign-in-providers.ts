import { unauthenticated } from '@platform/kit/errors/domain-error.ts';
import type { ListSignInProvidersRequest, ListSignInProvidersResponse } from '@platform/kit/gen/platform/core/v1/identity_provider.ts';
import type { CallContext } from '@platform/service-kit/auth/caller.ts';

/**
 * OidcSignInService.ListSignInProviders, for the gateway only (a public route: the login page has
 * no session): the active providers of an active account, id and display name alone. An unknown
 * account answers an empty list, as one without providers does.
 */
export async function listSignInProviders(request: ListSignInProvidersRequest, ctx: CallContext): Promise<ListSignInProvidersResponse> {
  if (ctx.caller.kind !== 'internal') throw unauthenticated();
  const rows = await ctx.em.execute<{ id: string; display_name: string }[]>(
    `select p.id, p.display_name from core.identity_provider p join core.account a on a.cr_process_id = p.cr_process_id
      where a.account_no = ? and a.status and p.status order by p.display_name, p.id`,
    [request.accountNo],
  );
  return { providers: rows.map((r) => ({ id: Number(r.id), displayName: r.display_name })) };
}
