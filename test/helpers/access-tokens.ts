import { api, type ApiResponse } from './platform.ts';

/** An expiry `ms` from now, as the API takes it. */
export function inMs(ms: number): string {
  return new Date(Date.now() + ms).toISOString();
}

/** A month from now. */
export const A_MONTH = 30 * 24 * 60 * 60 * 1000;

/** POST /api/access-token with a login's token. */
export function createAccessToken(loginToken: string, body: Record<string, unknown>): Promise<ApiResponse> {
  return api('POST', '/api/access-token', { token: loginToken, body });
}

/**
 * A personal access token of the user behind `loginToken`, in `crProcessId` with `roles`, expiring
 * in a month unless `expiresInMs` says otherwise; fails loudly on anything but 200.
 */
export async function accessTokenFor(
  loginToken: string,
  crProcessId: number,
  roles: readonly string[],
  expiresInMs = A_MONTH,
): Promise<{ token: string; tokenId: string; body: any }> {
  const res = await createAccessToken(loginToken, { name: 'integration', expiresAt: inMs(expiresInMs), crProcessId, roles });
  if (res.status !== 200) throw new Error(`create access token: ${res.status} ${res.text}`);
  return { token: res.body.token, tokenId: res.body.accessToken.tokenId, body: res.body };
}
