import type { IncomingMessage } from 'node:http';
import { authorize, type Caller, type CallContext } from '@platform/service-kit/auth/caller.ts';
import { callScope } from '@platform/service-kit/auth/call-scope.ts';
import { scopedFork } from '@platform/service-kit/db/tenant-scope.ts';
import type { VerifiedClaims } from '@platform/kit/auth/jwt.ts';
import { tokenOf } from '@platform/kit/auth/request-token.ts';
import { unauthenticated } from '@platform/kit/errors/domain-error.ts';
import { isAccessToken } from '@platform/kit/auth/access-token-form.ts';
import { accessTokenClaims } from '@platform/service-kit/auth/access-token.ts';
import { clientAddressOf } from './client-address.ts';
import type { Runtime } from '@platform/service-kit/grpc/server.ts';
import { isLanguage, languageFromHeader, type Language } from '@platform/kit/i18n/messages.ts';

/** Accept-Language first, then the login's language (docs/interface.md#errors). */
export function languageOfRequest(req: IncomingMessage, claims?: VerifiedClaims): Language {
  return languageFromHeader(req.headers['accept-language']) ?? (claims && isLanguage(claims.lang) ? claims.lang : 'en');
}

/**
 * The caller of a byte request that needs `role`, proven here and not taken from the gateway: a
 * user token whose signature and claims verify (TokenService, as for gRPC calls) and whose user and
 * session are live now (else 401 SVC-SYS-1001), holding `role` in the tenant it works in now (else
 * 403 SVC-SYS-1003; coreAccessSource reads both, as for a gRPC call of a method requiring it). The
 * context has its own forked EntityManager in the caller's scope, as a gRPC call's has.
 */
export async function callerOf(runtime: Runtime, req: IncomingMessage, role: string): Promise<CallContext> {
  const token = tokenOf(req.headers.cookie, req.headers.authorization);
  // a personal access token is resolved from its row (as for a gRPC call), a JWT verified
  const claims = !token
    ? undefined
    : isAccessToken(token)
      ? await accessTokenClaims(runtime.orm.em, token, clientAddressOf(req).ipAddress ?? undefined)
      : runtime.tokens.verifyUser(token);
  if (!claims) throw unauthenticated();
  const live = await runtime.access(runtime.orm.em, claims, { roles: new Set([role]) });
  if (!live) throw unauthenticated();
  const projectCode = req.headers['x-project-code'];
  const caller: Caller = { kind: 'user', claims, access: live.access };
  const ctx: CallContext = {
    // every statement of the request's work in the caller's scope, as a gRPC call's
    em: scopedFork(runtime.orm, callScope(caller)),
    caller,
    lang: languageOfRequest(req, claims),
    projectCode: typeof projectCode === 'string' ? projectCode.slice(0, 1000) : undefined,
  };
  authorize(ctx, role);
  return ctx;
}
