/**
 * Personal access tokens (docs/adr/0134-scoped-personal-access-tokens.md, 0135, 0136, 0137): made by
 * a user with a login's token, shown once, used as Authorization: Bearer on the routes of all three
 * services (file bytes included), refused at the next request once revoked, expired or their user
 * demoted, never a way to make another token or change the password, listed with their last use.
 */
import test from 'ava';
import { createHash } from 'node:crypto';
import { accessTokenFor, createAccessToken, inMs, A_MONTH } from './helpers/access-tokens.ts';
import {
  adminSession,
  createAccount,
  createBranch,
  createGroupWithRoles,
  createPartner,
  createUser,
  login,
  unique,
  userWithRoles,
} from './helpers/factories.ts';
import { upload } from './helpers/files.ts';
import { api, platform } from './helpers/platform.ts';
import { sql as dbQuery } from './helpers/db.ts';

const TENANT_ROLES = ['branch:read', 'business-partner:read', 'business-partner:write', 'dms-file:read', 'dms-file:write', 'user-info:read'];

async function tenantUser(roles: readonly string[] = TENANT_ROLES) {
  const account = await createAccount();
  const user = await userWithRoles(account, roles);
  return { account, user };
}

/** A user's user-info record, as the super user reads it. */
async function userInfoOf(userCode: string, crProcessId: number): Promise<any> {
  const res = await api('POST', '/api/user-info/list', { token: (await adminSession()).token, body: { page: 0, size: 1, filter: { crProcessId, userCode } } });
  if (res.status !== 200 || !res.body.content[0]) throw new Error(`user-info ${userCode}: ${res.status} ${res.text}`);
  return res.body.content[0];
}

function expectRefused(t: import('ava').ExecutionContext, res: { status: number; body: any; text: string }, status: number, code: string, what = ''): void {
  t.is(res.status, status, `${what} ${res.text}`);
  t.is(res.body?.error_code, code, what);
}

test('a token is shown once: the create answer carries svcpat_<id>_<secret>, the list never does, and only its SHA-256 is stored', async (t) => {
  const { account, user } = await tenantUser();
  const created = await createAccessToken(user.token, {
    name: 'ci',
    expiresAt: inMs(A_MONTH),
    crProcessId: account.crProcessId,
    roles: ['branch:read', 'business-partner:read'],
  });
  t.is(created.status, 200, created.text);
  const { token, accessToken } = created.body;
  t.regex(token, /^svcpat_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
  t.like(accessToken, {
    name: 'ci',
    userCode: user.userCode,
    crProcessId: account.crProcessId,
    accountNo: account.accountNo,
    active: true,
    revokedAt: null,
    lastUsedAt: null,
  });
  t.deepEqual(accessToken.roles, ['branch:read', 'business-partner:read']);
  t.is(token.slice(7, 39), accessToken.tokenId);

  const listed = await api('GET', '/api/access-token', { token: user.token });
  t.is(listed.status, 200, listed.text);
  t.deepEqual(
    listed.body.map((row: any) => row.tokenId),
    [accessToken.tokenId],
  );
  const secret = token.slice(40);
  t.false(listed.text.includes(secret), 'the secret is never listed');
  t.false(JSON.stringify(listed.body[0]).includes('secret'), 'nor its hash');

  const [row] = await dbQuery<{ secret_hash: string }>('select secret_hash from core.access_token where token_id = $1', [accessToken.tokenId]);
  t.is(row?.secret_hash, createHash('sha256').update(secret).digest('hex'));
});

test('a token works as Authorization: Bearer on core, bpm and dms routes, a file upload and its download included, without the API key or a session', async (t) => {
  const { account, user } = await tenantUser();
  const { token } = await accessTokenFor(user.token, account.crProcessId, TENANT_ROLES);
  const partner = await createPartner(account.crProcessId);
  const branch = await createBranch(account.crProcessId, partner.id);

  const me = await api('GET', '/api/auth/me', { token });
  t.is(me.status, 200, me.text);
  t.like(me.body, { userCode: user.userCode, crProcessId: account.crProcessId, superUser: false });
  const users = await api('POST', '/api/user-info/list', { token, body: { page: 0, size: 5, filter: { crProcessId: account.crProcessId } } });
  t.is(users.status, 200, `core: ${users.text}`);
  const got = await api('GET', `/api/branch/${branch.id}`, { token });
  t.is(got.status, 200, `bpm: ${got.text}`);
  t.is(got.body.id, branch.id);
  const made = await api('POST', '/api/business-partner', {
    token,
    body: { crProcessId: account.crProcessId, partnerCode: unique('P-'), partnerName: 'By token', partnerType: 'CUSTOMER' },
  });
  t.is(made.status, 200, made.text);
  t.is(made.body.createdBy, user.userCode);

  const uploaded = await upload({ token, crProcessId: account.crProcessId, content: 'bytes by token', fileName: 'token.txt' });
  t.is(uploaded.status, 200, `dms upload: ${uploaded.text}`);
  const file = await api('GET', `/api/dms-file/${uploaded.body.fileId}`, { token });
  t.is(file.status, 200, `dms: ${file.text}`);
  const url = await api('GET', `/api/dms-file/${uploaded.body.fileId}/download-url`, { token });
  t.is(url.status, 200, url.text);
  const bytes = await fetch(new URL(url.body.url, platform.url));
  t.is(bytes.status, 200);
  t.is(await bytes.text(), 'bytes by token');
});

test('malformed, unknown and forged tokens are 401 SVC-SYS-1001, on core, bpm and dms routes and on the upload', async (t) => {
  const { account, user } = await tenantUser();
  const { token, tokenId } = await accessTokenFor(user.token, account.crProcessId, TENANT_ROLES);
  const secret = token.slice(40);
  const other = secret.startsWith('A') ? `B${secret.slice(1)}` : `A${secret.slice(1)}`;
  const bad = [
    'svcpat_',
    'svcpat_abc',
    `svcpat_${tokenId}`,
    `svcpat_${tokenId}_`,
    `svcpat_${tokenId}_${other}`,
    `svcpat_${'0'.repeat(32)}_${secret}`,
    `svcpat_${tokenId.toUpperCase()}_${secret}`,
    `${token}x`,
  ];
  for (const forged of bad) {
    expectRefused(t, await api('GET', '/api/auth/me', { token: forged }), 401, 'SVC-SYS-1001', `core ${forged}`);
    expectRefused(
      t,
      await api('POST', '/api/branch/list', { token: forged, body: { page: 0, size: 1, filter: { crProcessId: account.crProcessId } } }),
      401,
      'SVC-SYS-1001',
      `bpm ${forged}`,
    );
    expectRefused(t, await api('GET', '/api/dms-file/usage', { token: forged }), 401, 'SVC-SYS-1001', `dms ${forged}`);
    expectRefused(t, await upload({ token: forged, crProcessId: account.crProcessId, content: 'x' }), 401, 'SVC-SYS-1001', `upload ${forged}`);
  }
  // and a path no route takes: the gateway's own answer waits for the check, as for a JWT
  expectRefused(t, await api('GET', '/api/no-such-thing', { token: bad[4] }), 401, 'SVC-SYS-1001', 'unknown path');
  t.is((await api('GET', '/api/no-such-thing', { token })).status, 404);
});

test('a role the user does not hold, a tenant it does not hold, an expiry past a year or already past, no roles and unknown fields are refused at create', async (t) => {
  const { account, user } = await tenantUser(['branch:read']);
  const other = await createAccount();
  const base = { name: 'x', expiresAt: inMs(A_MONTH), crProcessId: account.crProcessId, roles: ['branch:read'] };
  expectRefused(t, await createAccessToken(user.token, { ...base, roles: ['branch:read', 'branch:write'] }), 403, 'SVC-SYS-1003', 'role not held');
  expectRefused(t, await createAccessToken(user.token, { ...base, crProcessId: other.crProcessId }), 403, 'SVC-SYS-1003', 'tenant not held');
  expectRefused(t, await createAccessToken(user.token, { ...base, expiresAt: inMs(367 * 24 * 60 * 60 * 1000) }), 400, 'SVC-SYS-2001', 'past a year');
  expectRefused(t, await createAccessToken(user.token, { ...base, expiresAt: inMs(-1000) }), 400, 'SVC-SYS-2001', 'past');
  expectRefused(t, await createAccessToken(user.token, { ...base, expiresAt: 'soon' }), 400, 'SVC-SYS-2001', 'not a date');
  expectRefused(t, await createAccessToken(user.token, { ...base, roles: [] }), 400, 'SVC-SYS-2001', 'no roles');
  expectRefused(t, await createAccessToken(user.token, { ...base, name: '  ' }), 400, 'SVC-SYS-2001', 'no name');
  expectRefused(t, await createAccessToken(user.token, { ...base, superUser: true }), 400, 'SVC-SYS-2001', 'unknown field');
  expectRefused(t, await createAccessToken(user.token, { ...base, crProcessId: '1' }), 400, 'SVC-SYS-2001', 'crProcessId a string');
  // a year (366 days, a leap year's) is the longest
  t.is((await createAccessToken(user.token, { ...base, expiresAt: inMs(365 * 24 * 60 * 60 * 1000) })).status, 200);
  const listed = await api('GET', '/api/access-token', { token: user.token });
  t.is(listed.body.length, 1, 'only the valid one was made');
});

test("a super user's token carries only its roles, never the super user's power", async (t) => {
  const account = await createAccount();
  const { user, password } = await createUser([account.accountNo], { crProcessId: account.crProcessId, superUser: true }, { crProcessId: account.crProcessId });
  await createGroupWithRoles(account.crProcessId, ['branch:read'], [user.userCode]);
  const session = await login(user.userCode, password);
  const partner = await createPartner(account.crProcessId);
  const branch = await createBranch(account.crProcessId, partner.id);
  const { token } = await accessTokenFor(session.token, account.crProcessId, ['branch:read']);
  t.is((await api('GET', `/api/branch/${branch.id}`, { token })).status, 200);
  expectRefused(t, await api('GET', `/api/business-partner/${partner.id}`, { token }), 403, 'SVC-SYS-1003', 'another role');
  // the operator paths want the API key (or the console's proof with a super user's session): a token is neither
  expectRefused(t, await api('GET', '/api/session/active', { token }), 401, 'SVC-SYS-1004', 'operator path');
  const me = await api('GET', '/api/auth/me', { token });
  t.like(me.body, { superUser: false, roles: ['branch:read'] });
  // and a role it does not hold is refused to a super user too
  expectRefused(
    t,
    await createAccessToken(session.token, { name: 'x', expiresAt: inMs(A_MONTH), crProcessId: account.crProcessId, roles: ['branch:write'] }),
    403,
    'SVC-SYS-1003',
  );
});

test('revocation by its owner refuses the token at the next request on every service, and the list shows who revoked it', async (t) => {
  const { account, user } = await tenantUser();
  const { token, tokenId } = await accessTokenFor(user.token, account.crProcessId, TENANT_ROLES);
  const partner = await createPartner(account.crProcessId);
  const branch = await createBranch(account.crProcessId, partner.id);
  // warm every service's kept access first, so that the refusal is not a first read
  t.is((await api('GET', `/api/branch/${branch.id}`, { token })).status, 200);
  t.is((await api('GET', `/api/business-partner/${partner.id}`, { token })).status, 200);
  const usage = `/api/dms-file/usage?crProcessId=${account.crProcessId}`;
  t.is((await api('GET', usage, { token })).status, 200);

  const revoked = await api('POST', `/api/access-token/${tokenId}/revoke`, { token: user.token });
  t.is(revoked.status, 200, revoked.text);
  t.like(revoked.body, { tokenId, active: false, revokedBy: user.userCode });
  t.truthy(revoked.body.revokedAt);

  expectRefused(t, await api('GET', `/api/branch/${branch.id}`, { token }), 401, 'SVC-SYS-1001', 'bpm');
  expectRefused(t, await api('GET', '/api/auth/me', { token }), 401, 'SVC-SYS-1001', 'core');
  expectRefused(t, await api('GET', usage, { token }), 401, 'SVC-SYS-1001', 'dms');
  expectRefused(t, await upload({ token, crProcessId: account.crProcessId, content: 'x' }), 401, 'SVC-SYS-1001', 'upload');
  // revoking again changes nothing
  const again = await api('POST', `/api/access-token/${tokenId}/revoke`, { token: user.token });
  t.is(again.status, 200);
  t.is(again.body.revokedAt, revoked.body.revokedAt);
  // the user's own login goes on
  t.is((await api('GET', `/api/branch/${branch.id}`, { token: user.token })).status, 200);
});

test('a token is refused once past its expiry', async (t) => {
  const { account, user } = await tenantUser();
  const { token } = await accessTokenFor(user.token, account.crProcessId, ['branch:read'], 2500);
  const list = () => api('POST', '/api/branch/list', { token, body: { page: 0, size: 1, filter: { crProcessId: account.crProcessId } } });
  t.is((await list()).status, 200);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  expectRefused(t, await list(), 401, 'SVC-SYS-1001', 'expired');
  const [listed] = (await api('GET', '/api/access-token', { token: user.token })).body;
  t.false(listed.active);
});

test("demoting the token's user counts at the next request: a role taken away is 403, the user made passive 401", async (t) => {
  const { account, user } = await tenantUser(['branch:read']);
  const extra = await createGroupWithRoles(account.crProcessId, ['business-partner:read'], [user.userCode]);
  const { token } = await accessTokenFor(user.token, account.crProcessId, ['branch:read', 'business-partner:read']);
  const partner = await createPartner(account.crProcessId);
  const branch = await createBranch(account.crProcessId, partner.id);
  t.is((await api('GET', `/api/business-partner/${partner.id}`, { token })).status, 200);
  t.is((await api('GET', `/api/branch/${branch.id}`, { token })).status, 200);

  const admin = (await adminSession()).token;
  const passiveGroup = await api('PUT', `/api/group/${extra.id}`, { token: admin, body: { version: extra.version, status: false } });
  t.is(passiveGroup.status, 200, passiveGroup.text);
  expectRefused(t, await api('GET', `/api/business-partner/${partner.id}`, { token }), 403, 'SVC-SYS-1003', 'role taken away');
  t.is((await api('GET', `/api/branch/${branch.id}`, { token })).status, 200, 'the role still held still counts');

  const record = await userInfoOf(user.userCode, account.crProcessId);
  const passive = await api('PUT', `/api/user-info/${record.id}`, { token: admin, body: { version: record.version, status: false } });
  t.is(passive.status, 200, passive.text);
  expectRefused(t, await api('GET', `/api/branch/${branch.id}`, { token }), 401, 'SVC-SYS-1001', 'user passive');
  expectRefused(t, await upload({ token, crProcessId: account.crProcessId, content: 'x' }), 401, 'SVC-SYS-1001', 'upload, user passive');
});

test("a token never makes another token, changes its user's password, switches the tenant or logs out (403 SVC-SYS-1003)", async (t) => {
  const { account, user } = await tenantUser([...TENANT_ROLES, 'user-info:write']);
  const { token } = await accessTokenFor(user.token, account.crProcessId, [...TENANT_ROLES, 'user-info:write']);
  expectRefused(
    t,
    await createAccessToken(token, { name: 'child', expiresAt: inMs(A_MONTH), crProcessId: account.crProcessId, roles: ['branch:read'] }),
    403,
    'SVC-SYS-1003',
    'create',
  );
  expectRefused(
    t,
    await api('POST', '/api/auth/change-password', { token, body: { currentPassword: user.password, newPassword: unique('pw-') } }),
    403,
    'SVC-SYS-1003',
    'change-password',
  );
  expectRefused(t, await api('POST', '/api/auth/switch-account', { token, body: { accountNo: account.accountNo } }), 403, 'SVC-SYS-1003', 'switch-account');
  expectRefused(t, await api('POST', '/api/auth/logout', { token }), 403, 'SVC-SYS-1003', 'logout');
  const record = await userInfoOf(user.userCode, account.crProcessId);
  expectRefused(
    t,
    await api('PUT', `/api/user-info/${record.id}`, { token, body: { version: record.version, password: unique('pw-') } }),
    403,
    'SVC-SYS-1003',
    'own password',
  );
  // the password still works, and the token too
  t.is((await login(user.userCode, user.password)).body.userCode, user.userCode);
  t.is((await api('GET', '/api/auth/me', { token })).status, 200);
});

test("a password change ends the user's tokens, as it ends every session (tokenVersion)", async (t) => {
  const { account, user } = await tenantUser(['branch:read']);
  const { token } = await accessTokenFor(user.token, account.crProcessId, ['branch:read']);
  t.is((await api('GET', '/api/auth/me', { token })).status, 200);
  const changed = await api('POST', '/api/auth/change-password', { token: user.token, body: { currentPassword: user.password, newPassword: unique('pw-') } });
  t.is(changed.status, 204, changed.text);
  expectRefused(t, await api('GET', '/api/auth/me', { token }), 401, 'SVC-SYS-1001');
});

test('the last use is listed: its time and client address, written at once and then at most once a minute per service', async (t) => {
  const { account, user } = await tenantUser();
  const { token, tokenId } = await accessTokenFor(user.token, account.crProcessId, ['branch:read']);
  const before = Date.now();
  t.is((await api('POST', '/api/branch/list', { token, body: { page: 0, size: 1, filter: { crProcessId: account.crProcessId } } })).status, 200);
  let listed: any;
  for (let i = 0; i < 50; i++) {
    listed = (await api('GET', '/api/access-token', { token: user.token })).body.find((row: any) => row.tokenId === tokenId);
    if (listed.lastUsedAt) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  t.truthy(listed.lastUsedAt, 'noted');
  t.true(Date.parse(listed.lastUsedAt) >= before - 1000);
  t.regex(listed.lastUsedIp, /127\.0\.0\.1|::1/);
  // a forged secret is not a use
  const forged = `svcpat_${tokenId}_${'A'.repeat(43)}`;
  await dbQuery('update core.access_token set last_used_at = null, last_used_ip = null where token_id = $1', [tokenId]);
  t.is((await api('GET', '/api/auth/me', { token: forged })).status, 401);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const [row] = await dbQuery<{ last_used_at: Date | null }>('select last_used_at from core.access_token where token_id = $1', [tokenId]);
  t.is(row?.last_used_at, null);
});

test("a tenant's administrator (user-info:write there) lists and revokes its tenant's tokens; others may not", async (t) => {
  const account = await createAccount();
  const [owner, admin, clerk] = await Promise.all([
    userWithRoles(account, ['branch:read']),
    userWithRoles(account, ['user-info:write']),
    userWithRoles(account, ['user-info:read']),
  ]);
  const { account: elsewhere, user: otherAdmin } = await tenantUser(['user-info:write']);
  const { token, tokenId } = await accessTokenFor(owner.token, account.crProcessId, ['branch:read']);
  const foreign = await accessTokenFor(otherAdmin.token, elsewhere.crProcessId, ['user-info:write']);

  const listed = await api('GET', `/api/access-token/tenant?crProcessId=${account.crProcessId}`, { token: admin.token });
  t.is(listed.status, 200, listed.text);
  t.deepEqual(
    listed.body.map((row: any) => row.tokenId),
    [tokenId],
  );
  t.is(listed.body[0].userCode, owner.userCode);
  expectRefused(
    t,
    await api('GET', `/api/access-token/tenant?crProcessId=${account.crProcessId}`, { token: clerk.token }),
    403,
    'SVC-SYS-1003',
    'without user-info:write',
  );
  expectRefused(
    t,
    await api('GET', `/api/access-token/tenant?crProcessId=${elsewhere.crProcessId}`, { token: admin.token }),
    403,
    'SVC-SYS-1003',
    'another tenant',
  );
  expectRefused(t, await api('GET', '/api/access-token/tenant', { token: admin.token }), 400, 'SVC-SYS-2001', 'no crProcessId');

  expectRefused(t, await api('POST', `/api/access-token/${tokenId}/revoke`, { token: clerk.token }), 404, 'SVC-SYS-4001', 'clerk');
  expectRefused(t, await api('POST', `/api/access-token/${foreign.tokenId}/revoke`, { token: admin.token }), 404, 'SVC-SYS-4001', "another tenant's");
  expectRefused(t, await api('POST', '/api/access-token/not-an-id/revoke', { token: admin.token }), 400, 'SVC-SYS-2001', 'malformed id');
  t.is((await api('GET', '/api/auth/me', { token })).status, 200);
  const revoked = await api('POST', `/api/access-token/${tokenId}/revoke`, { token: admin.token });
  t.is(revoked.status, 200, revoked.text);
  t.like(revoked.body, { active: false, revokedBy: admin.userCode });
  expectRefused(t, await api('GET', '/api/auth/me', { token }), 401, 'SVC-SYS-1001', 'revoked by the administrator');
  // the super user sees every tenant's
  const all = await api('GET', `/api/access-token/tenant?crProcessId=${elsewhere.crProcessId}`, { token: (await adminSession()).token });
  t.deepEqual(
    all.body.map((row: any) => row.tokenId),
    [foreign.tokenId],
  );
  // and a user lists only its own
  t.deepEqual((await api('GET', '/api/access-token', { token: admin.token })).body, []);
});

test('the API document lists the access token routes and offers the token as a security scheme on every JWT path, not on the API-key ones', async (t) => {
  const res = await api('GET', '/api/docs/openapi.json');
  t.is(res.status, 200);
  const doc = res.body;
  t.like(doc.components.securitySchemes.accessToken, { type: 'http', scheme: 'bearer', bearerFormat: 'svcpat_<tokenId>_<secret>' });
  t.truthy(doc.paths['/api/access-token']?.get);
  t.truthy(doc.paths['/api/access-token']?.post);
  t.truthy(doc.paths['/api/access-token/{tokenId}/revoke']?.post);
  t.truthy(doc.paths['/api/access-token/tenant']?.get);
  const offers = (path: string, method: string) => (doc.paths[path][method].security as Record<string, unknown>[]).some((scheme) => 'accessToken' in scheme);
  t.true(offers('/api/branch/{key}', 'get'));
  t.true(offers('/api/dms-file/upload', 'post'));
  t.false(offers('/api/session/active', 'get'));
  t.false(offers('/api/auth/login', 'post'));
});
