import * as client from 'openid-client';
import type { SignOutRequest, SignOutResponse } from '@platform/kit/gen/platform/core/v1/identity_provider.ts';
import { userOf, type CallContext } from '@platform/service-kit/auth/caller.ts';
import { endSession } from '../sessions/session-ended.ts';
import { providerConfig } from './provider-client.ts';
import { providerById } from './provider-row.ts';

/**
 * OidcSignInService.SignOut: ends the caller's session as logout does, and, when the session was
 * opened through a provider whose discovery names an end_session_endpoint, answers the URL of its
 * RP-initiated logout (id_token_hint, client_id, post_logout_redirect_uri). A provider that cannot
 * be reached now leaves the answer without it: the platform's session is ended either way.
 */
export async function signOut(request: SignOutRequest, ctx: CallContext): Promise<SignOutResponse> {
  const claims = userOf(ctx);
  const [link] = await ctx.em.execute<{ provider_id: string; id_token: string }[]>(
    `delete from core.oidc_session where session_id = ? returning provider_id, id_token`,
    [claims.sid],
  );
  await endSession(ctx.em, claims.sid, claims.userCode);
  if (!link) return {};
  const provider = await providerById(ctx.em, Number(link.provider_id));
  if (!provider) return {};
  try {
    const config = await providerConfig({
      id: provider.id,
      version: provider.version,
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
    });
    if (!config.serverMetadata().end_session_endpoint) return {};
    const params: Record<string, string> = { id_token_hint: link.id_token, client_id: provider.clientId };
    if (/^https?:\/\//.test(request.postLogoutRedirectUri)) params.post_logout_redirect_uri = request.postLogoutRedirectUri;
    return { redirectUrl: client.buildEndSessionUrl(config, params).href };
  } catch {
    return {};
  }
}
