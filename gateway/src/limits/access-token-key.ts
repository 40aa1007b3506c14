import { accessTokenParts } from '@platform/kit/auth/access-token-form.ts';

/**
 * The public id of a well-formed personal access token in an Authorization header, for its own
 * rate-limit bucket; undefined for anything else. The gateway does not check the secret (the
 * services do, docs/adr/0134-scoped-personal-access-tokens.md): a forged token fills the bucket of
 * the id it names, and its requests are counted under its client address as well.
 *
 * @example
 * accessTokenIdOfRequest('Bearer svcpat_0123…_AbC…') // '0123…'
 */
export function accessTokenIdOfRequest(authorization: string | undefined): string | undefined {
  if (!authorization || !/^Bearer /i.test(authorization)) return undefined;
  return accessTokenParts(authorization.slice(7).trim())?.tokenId;
}
