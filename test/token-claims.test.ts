/**
 * A token signed with the platform's own secret is still refused unless every claim holds up:
 * `exp`, `iat` (not in the future), `sub` (equal to userCode) and `sid` (a UUID naming a live
 * session of the same user) are required and checked; anything else is 401 SVC-SYS-1001
 * (docs/interface.md#errors: "session or token missing, invalid, expired or revoked"), at the gateway and
 * at the services themselves ("The services never serve a gRPC call that carries neither a valid
 * user token nor the internal service credential", docs/interface.md#identity).
 */
import test from 'ava';
import { credentials, Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { BusinessPartnerServiceClient } from '@platform/kit/gen/platform/bpm/v1/business_partner.ts';
import { createAccount, createUser, login, userWithRoles } from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';
import { claimsOf, signWithPlatformSecret } from './helpers/tokens.ts';

interface Fixture {
  claims: Record<string, unknown>;
  /** Another user's live session. */
  other: { userCode: string; sid: unknown };
}

let fixture: Fixture;

test.before(async () => {
  const account = await createAccount();
  const [session, theirs] = await Promise.all([userWithRoles(account, ['business-partner:read']), createUser([account.accountNo])]);
  const otherSession = await login(theirs.user.userCode, theirs.password);
  fixture = { claims: claimsOf(session.token), other: { userCode: theirs.user.userCode, sid: claimsOf(otherSession.token).sid } };
});

function without(claims: Record<string, unknown>, name: string): Record<string, unknown> {
  const { [name]: _dropped, ...rest } = claims;
  return rest;
}

function variants(): [string, Record<string, unknown>][] {
  const { claims, other } = fixture;
  const now = Math.floor(Date.now() / 1000);
  return [
    ['without exp', without(claims, 'exp')],
    ['without iat', without(claims, 'iat')],
    ['with iat an hour in the future', { ...claims, iat: now + 3600 }],
    ['without sub', without(claims, 'sub')],
    ['without sid', without(claims, 'sid')],
    ['with the sid of another user', { ...claims, sid: other.sid }],
    ['with a sid that is not a UUID', { ...claims, sid: 'not-a-uuid' }],
    ["with another user's userCode beside its own sub", { ...claims, userCode: other.userCode }],
    ["with another user's sub and userCode, and its own sid", { ...claims, sub: other.userCode, userCode: other.userCode }],
    ['with a tokenVersion past an integer column', { ...claims, tokenVersion: 2 ** 40 }],
  ];
}

test('the control: the same claims signed again are accepted at the gateway and by a service', async (t) => {
  const token = signWithPlatformSecret(fixture.claims);
  for (const path of ['/api/auth/me', '/api/business-partner/stats']) t.is((await api('GET', path, { token })).status, 200, path);
  t.is((await listPartners(token)).error, undefined);
});

test('the gateway refuses a token signed with the secret unless exp, iat, sub and sid hold up: 401 SVC-SYS-1001', async (t) => {
  for (const [name, claims] of variants()) {
    const token = signWithPlatformSecret(claims);
    for (const path of ['/api/auth/me', '/api/business-partner/stats']) {
      const res = await api('GET', path, { token });
      t.is(res.status, 401, `${name} ${path}: ${res.text}`);
      t.is(res.body.error_code, 'SVC-SYS-1001', `${name} ${path}`);
    }
  }
});

test('a service refuses the same tokens itself, called straight over gRPC: UNAUTHENTICATED SVC-SYS-1001', async (t) => {
  for (const [name, claims] of variants()) {
    const { error } = await listPartners(signWithPlatformSecret(claims));
    t.is(error?.code, status.UNAUTHENTICATED, name);
    t.deepEqual(error?.metadata.get('x-error-code'), ['SVC-SYS-1001'], name);
  }
});

async function listPartners(token: string): Promise<{ error: ServiceError | undefined }> {
  const client = new BusinessPartnerServiceClient(platform.grpc.bpm, credentials.createInsecure());
  const metadata = new Metadata();
  metadata.set('authorization', `Bearer ${token}`);
  const crProcessId = fixture.claims.crProcessId as number;
  try {
    return await new Promise((resolve) =>
      client.listBusinessPartners({ page: { page: 0, size: 1, sorts: [], filter: { crProcessId } } }, metadata, (error) =>
        resolve({ error: error ?? undefined }),
      ),
    );
  } finally {
    client.close();
  }
}
