import { createHash } from 'node:crypto';
import * as client from 'openid-client';
import type { TokenService } from '@platform/kit/auth/jwt.ts';
import { DomainError, invalidField } from '@platform/kit/errors/domain-error.ts';
import { isLanguage } from '@platform/kit/i18n/messages.ts';
import type {
  FinishSignInRequest,
  FinishSignInResponse,
  StartSignInRequest,
  StartSignInResponse,
} from '@platform/kit/gen/platform/core/v1/identity_provider.ts';
import { unauthenticated } from '@platform/kit/errors/domain-error.ts';
import type { CallContext } from '@platform/service-kit/auth/caller.ts';
import type { Logger } from '@platform/kit/log/logger.ts';
import type { CoreConfig } from '../config.ts';
import { domainsOf, mappingsOf } from '../resources/identity-provider/identity-provider.operations.ts';
import { openSession } from './open-session.ts';
import { providerConfig } from './provider-client.ts';
import { providerById, type ProviderRow } from './provider-row.ts';
import { provision } from './provision.ts';

/** How long a started sign-in may wait for the browser's return. */
export const SIGN_IN_TTL_MS = 10 * 60_000;
const SCOPE = 'openid email profile';

/** The claim an openid-client error names, somewhere along its causes (`iss`, `aud`, `nonce`, `exp`). */
function claimOf(err: unknown): string | undefined {
  for (let cause = err, depth = 0; cause && typeof cause === 'object' && depth < 5; depth++) {
    const { claim } = cause as { claim?: unknown };
    if (typeof claim === 'string') return claim;
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Every refusal of a sign-in: one answer, whatever was wrong (401 SVC-SYS-1002); the reason goes to the log only. */
const refusal = (log: Logger, reason: string, err?: unknown): DomainError => {
  // openid-client's error code and message (which claim failed: iss, aud, nonce, exp), never a token
  const claim = claimOf(err);
  const cause = err instanceof Error ? `${String((err as { code?: unknown }).code ?? err.name)}${claim ? ` claim ${claim}` : ''}` : undefined;
  log.warn({ reason, detail: cause }, 'single sign-on refused');
  return new DomainError('SVC-SYS-1002', 'sso.failed');
};

const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/** A console path to land on: `/console` or below it, nothing that leaves the origin. */
function checkedReturnTo(returnTo: string): string {
  if (returnTo === '') return '/console/';
  if (!/^\/console(\/[^\\]*)?$/.test(returnTo) || returnTo.includes('//') || returnTo.length > 1000) throw invalidField('returnTo', 'field.invalid');
  return returnTo;
}

/** The gateway's callback: an absolute http(s) URL ending in /api/auth/oidc/callback. */
function checkedRedirectUri(uri: string): string {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw invalidField('redirectUri', 'field.invalid');
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.pathname !== '/api/auth/oidc/callback' || url.search || url.hash) {
    throw invalidField('redirectUri', 'field.invalid');
  }
  return uri;
}

async function discovered(provider: ProviderRow): Promise<client.Configuration> {
  try {
    return await providerConfig({
      id: provider.id,
      version: provider.version,
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
    });
  } catch {
    throw new DomainError('SVC-SYS-5002', 'service.unavailable');
  }
}

/**
 * OidcSignInService.StartSignIn, for the gateway only: state, nonce and PKCE verifier made here and
 * kept in core.oidc_sign_in with the hash of the browser's binding cookie, for ten minutes and one
 * use; answers the provider's authorization URL (code flow, S256). An unknown or passive provider
 * is 404 SVC-SYS-4001.
 */
export function startSignIn(): (request: StartSignInRequest, ctx: CallContext) => Promise<StartSignInResponse> {
  return async (request, ctx) => {
    if (ctx.caller.kind !== 'internal') throw unauthenticated();
    const redirectUri = checkedRedirectUri(request.redirectUri);
    const returnTo = checkedReturnTo(request.returnTo);
    if (request.browserBinding.length < 32) throw invalidField('browserBinding', 'field.invalid');
    const provider = await providerById(ctx.em, request.providerId);
    if (!provider || provider.status !== true) throw new DomainError('SVC-SYS-4001', 'record.notFound', { resource: 'identity-provider' });
    const config = await discovered(provider);
    const state = client.randomState();
    const nonce = client.randomNonce();
    const codeVerifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: SCOPE,
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
    // the sign-ins nobody finished go as new ones start
    await ctx.em.execute(`delete from core.oidc_sign_in where expires_at < now()`);
    await ctx.em.execute(
      `insert into core.oidc_sign_in (state, provider_id, nonce, code_verifier, redirect_uri, return_to, binding_hash, expires_at) values (?, ?, ?, ?, ?, ?, ?, ?)`,
      [state, provider.id, nonce, codeVerifier, redirectUri, returnTo, sha256(request.browserBinding), new Date(Date.now() + SIGN_IN_TTL_MS)],
    );
    return { authorizationUrl: url.href };
  };
}

interface PendingSignIn {
  provider_id: string;
  nonce: string;
  code_verifier: string;
  redirect_uri: string;
  return_to: string;
  binding_hash: string;
  expires_at: Date | string;
}

/**
 * OidcSignInService.FinishSignIn, for the gateway only. The state is taken once (deleted as it is
 * read: a replay finds nothing), must be unexpired and started by the same browser (its SVC_OIDC
 * cookie); openid-client exchanges the code with the PKCE verifier and validates the ID token
 * (signature by the provider's keys, issuer, audience, expiry, nonce). The ID token must carry an
 * e-mail, verified and within the allowed domains when the provider names any. Then the user is
 * provisioned (provision.ts) and a session opened. Every refusal is 401 SVC-SYS-1002.
 */
export function finishSignIn(
  config: CoreConfig,
  tokens: TokenService,
  log: Logger,
): (request: FinishSignInRequest, ctx: CallContext) => Promise<FinishSignInResponse> {
  return async (request, ctx) => {
    if (ctx.caller.kind !== 'internal') throw unauthenticated();
    if (!isLanguage(request.languageCode)) throw invalidField('languageCode', 'field.enum', { values: 'en, tr' });
    let callback: URL;
    try {
      callback = new URL(request.callbackUrl);
    } catch {
      throw invalidField('callbackUrl', 'field.invalid');
    }
    const state = callback.searchParams.get('state');
    // a callback without its parameters is malformed, not a refused sign-in
    if (!state || state.length > 128) throw invalidField('state', 'field.invalid');
    const [pending] = await ctx.em.execute<PendingSignIn[]>(
      `delete from core.oidc_sign_in where state = ? returning provider_id, nonce, code_verifier, redirect_uri, return_to, binding_hash, expires_at`,
      [state],
    );
    if (!pending) throw refusal(log, 'unknown or used state');
    if (new Date(pending.expires_at).getTime() < Date.now()) throw refusal(log, 'expired state');
    if (sha256(request.browserBinding) !== pending.binding_hash) throw refusal(log, 'state of another browser');
    const provider = await providerById(ctx.em, Number(pending.provider_id));
    if (!provider || provider.status !== true) throw refusal(log, 'provider gone or passive');
    const oidc = await discovered(provider);

    // the callback as the provider was told it, with the parameters the browser brought back
    const current = new URL(pending.redirect_uri);
    current.search = callback.search;
    let tokenSet: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokenSet = await client.authorizationCodeGrant(oidc, current, {
        pkceCodeVerifier: pending.code_verifier,
        expectedState: state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      throw refusal(log, 'code exchange or ID token refused', error);
    }
    const claims = tokenSet.claims();
    const idToken = tokenSet.id_token;
    if (!claims || !idToken) throw refusal(log, 'no ID token');
    const email = typeof claims.email === 'string' ? claims.email.trim() : '';
    const domain = email.includes('@') ? email.slice(email.lastIndexOf('@') + 1).toLowerCase() : '';
    if (domain === '') throw refusal(log, 'no e-mail');
    const domains = domainsOf(provider);
    if (domains.length > 0 && (claims.email_verified !== true || !domains.includes(domain)))
      throw refusal(log, 'e-mail unverified or outside the allowed domains');

    const name = typeof claims.name === 'string' && claims.name.trim() !== '' ? claims.name.trim() : email;
    const client_ = { ipAddress: request.ipAddress, userAgent: request.userAgent, projectCode: request.projectCode, languageCode: request.languageCode };
    const opened = await ctx.em.transactional(async (tx) => {
      const identity = await provision(
        tx,
        provider,
        mappingsOf(provider),
        { subject: claims.sub, email, name, claims: claims as Record<string, unknown> },
        config.bcryptRounds,
      );
      if (!identity) return undefined;
      const session = await openSession(tx, tokens, config.jwtTtlSeconds, identity, provider.crProcessId, client_);
      if (session) {
        await tx.execute(`insert into core.oidc_session (session_id, provider_id, id_token, created_at) values (?, ?, ?, now())`, [
          session.sessionId,
          provider.id,
          idToken,
        ]);
      }
      return session;
    });
    if (!opened) throw refusal(log, 'user passive or without the tenant');
    return { login: opened.login, returnTo: pending.return_to };
  };
}
