/**
 * Single sign-on with OpenID Connect through the API (docs/interface.md#single-sign-on,
 * docs/adr/0130-single-sign-on-per-tenant.md … 0133): a real OpenID provider (oidc-provider) on
 * loopback for the whole code flow, just-in-time provisioning with group mapping and the groups
 * following the claims; a provider of the test's own (jose) for the ID tokens that must be refused;
 * the client secret never answered.
 */
import test from 'ava';
import { createAccount, createGroupWithRoles, login, unique, userWithRoles } from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';
import { startTestProvider, type TestProvider } from './helpers/oidc-provider.ts';
import { startStubProvider, type StubProvider } from './helpers/oidc-stub.ts';
import { SsoBrowser } from './helpers/sso-browser.ts';
import { adminSession } from './helpers/factories.ts';
import { logLinesWith } from './helpers/platform-log.ts';

const CALLBACK = `${platform.url}/api/auth/oidc/callback`;
const atConsole = (url: string) => url.startsWith(`${platform.url}/console`);

let idp: TestProvider;
let stub: StubProvider;
test.before(async () => {
  idp = await startTestProvider(platform.url);
  stub = await startStubProvider();
});
test.after.always(async () => {
  await idp?.close();
  await stub?.close();
});

async function admin(): Promise<string> {
  return (await adminSession()).token;
}

async function createProvider(body: Record<string, unknown>): Promise<any> {
  const res = await api('POST', '/api/identity-provider', { token: await admin(), body });
  if (res.status !== 200) throw new Error(`identity-provider: ${res.status} ${res.text}`);
  return res.body;
}

/** Signs in through `providerId` from a fresh browser; answers the browser and where it landed. */
async function signIn(providerId: number, accountId: string, browser = new SsoBrowser()) {
  const walked = await browser.walk(`${platform.url}/api/auth/oidc/${providerId}/start?returnTo=/console/`, accountId, atConsole);
  return { browser, ...walked, token: browser.cookie(platform.url, 'SVC_SESSION') };
}

test('the code flow against a real provider provisions the user into the tenant with the mapped groups, and later sign-ins follow the claims', async (t) => {
  const account = await createAccount();
  const tenant = account.crProcessId;
  const sales = await createGroupWithRoles(tenant, ['business-partner:read']);
  const support = await createGroupWithRoles(tenant, ['product:read']);
  const provider = await createProvider({
    crProcessId: tenant,
    displayName: 'Acme Login',
    issuer: idp.issuer,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    allowedDomains: ['Acme.test'],
    groupMappings: [
      { claim: 'groups', value: 'sales', groupName: sales.groupName },
      { claim: 'department', value: 'support', groupName: support.groupName },
    ],
  });
  t.deepEqual(provider.allowedDomains, ['acme.test']);
  t.is(provider.passwordLogin, false);

  // the login page's list: public, by account number, ids and names only
  const listed = await api('GET', `/api/auth/oidc/providers?accountNo=${encodeURIComponent(account.accountNo)}`);
  t.is(listed.status, 200);
  t.deepEqual(listed.body, { providers: [{ id: provider.id, displayName: 'Acme Login' }] });
  t.deepEqual((await api('GET', '/api/auth/oidc/providers?accountNo=NO-SUCH-ACCOUNT')).body, { providers: [] });

  const subject = unique('ayse-');
  const email = `${subject}@acme.test`;
  idp.account(subject, { email, email_verified: true, name: 'Ayşe Yılmaz', groups: ['sales', 'other'] });
  const first = await signIn(provider.id, subject);
  t.true(first.url.startsWith(`${platform.url}/console/`), first.url);
  // the flow went through the provider's login and consent, back to the callback
  t.true(first.browser.trail.some((step) => step.url.startsWith(CALLBACK) && step.status === 302));
  const callbackMs = (walk: typeof first) => walk.browser.trail.find((step) => step.url.startsWith(CALLBACK))?.ms.toFixed(1);
  t.truthy(first.token);
  const me = await api('GET', '/api/auth/me', { token: first.token });
  t.is(me.status, 200);
  t.is(me.body.userCode, email);
  t.is(me.body.superUser, false);
  t.is(me.body.crProcessId, tenant);
  t.is(me.body.accountNo, account.accountNo);
  t.true(me.body.roles.includes('business-partner:read'));
  t.false(me.body.roles.includes('product:read'));

  // the second sign-in: the claims changed, and so do the memberships of the mapped groups
  idp.account(subject, { email, email_verified: true, name: 'Ayşe Yılmaz', groups: [], department: 'support' });
  const second = await signIn(provider.id, subject);
  const again = await api('GET', '/api/auth/me', { token: second.token });
  t.is(again.body.userCode, email, 'the same user, not a second one');
  t.true(again.body.roles.includes('product:read'));
  t.false(again.body.roles.includes('business-partner:read'));
  t.log(`callback (code exchange, ID token, provisioning, session): first sign-in ${callbackMs(first)} ms, second ${callbackMs(second)} ms`);
  // the first session's roles are read live too
  t.false((await api('GET', '/api/auth/me', { token: first.token })).body.roles.includes('business-partner:read'));

  // RP-initiated logout: the session ends, and the answer names the provider's end-session endpoint
  const out = await second.browser.request(`${platform.url}/api/auth/oidc/logout`, { method: 'POST' });
  t.is(out.status, 200);
  const { redirectUrl } = (await out.json()) as { redirectUrl: string };
  t.true(redirectUrl.startsWith(`${idp.issuer}/session/end`), redirectUrl);
  t.true(new URL(redirectUrl).searchParams.has('id_token_hint'));
  t.is((await api('GET', '/api/auth/me', { token: second.token })).status, 401);
  t.is((await api('GET', '/api/auth/me', { token: first.token })).status, 200, 'only the session logged out ends');
});

test('a user linked to a provider logs in with a password only where the provider allows it', async (t) => {
  const account = await createAccount();
  const provider = await createProvider({
    crProcessId: account.crProcessId,
    displayName: 'Acme',
    issuer: idp.issuer,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
  });
  const subject = unique('can-');
  idp.account(subject, { email: `${subject}@anywhere.test`, name: 'Can' });
  const signedIn = await signIn(provider.id, subject);
  const me = await api('GET', '/api/auth/me', { token: signedIn.token });
  t.is(me.status, 200);
  const user = await api('POST', '/api/user-info/list', {
    token: await admin(),
    body: { page: 0, size: 1, filter: { crProcessId: account.crProcessId, userCode: me.body.userCode } },
  });
  const row = user.body.content[0];
  const password = unique('pw-');
  t.is((await api('PUT', `/api/user-info/${row.id}`, { token: await admin(), body: { version: row.version, password } })).status, 200);

  const refused = await api('POST', '/api/auth/login', { apiKey: true, body: { userCode: row.userCode, password, languageCode: 'en' } });
  t.is(refused.status, 401);
  t.is(refused.body.error_code, 'SVC-SYS-1002', "the login's usual refusal");
  t.is(
    (await api('PUT', `/api/identity-provider/${provider.id}`, { token: await admin(), body: { version: provider.version, passwordLogin: true } })).status,
    200,
  );
  await t.notThrowsAsync(login(row.userCode, password));
  // a provider deleted takes its links along; the user it provisioned stays, and is no longer its
  t.is((await api('DELETE', `/api/identity-provider/${provider.id}`, { token: await admin() })).status, 204);
  t.is((await api('GET', `/api/user-info/${row.id}`, { token: await admin() })).status, 200);
});

test('the client secret is accepted on create and update and never answered', async (t) => {
  const account = await createAccount();
  const secret = `s3cret-${unique()}`;
  const created = await createProvider({
    crProcessId: account.crProcessId,
    displayName: 'Secretive',
    issuer: stub.issuer,
    clientId: 'x',
    clientSecret: secret,
  });
  const token = await admin();
  const updated = await api('PUT', `/api/identity-provider/${created.id}`, {
    token,
    body: { version: created.version, clientSecret: `${secret}-2`, displayName: 'Secretive 2' },
  });
  t.is(updated.status, 200);
  const answers = [
    created,
    updated.body,
    (await api('GET', `/api/identity-provider/${created.id}`, { token })).body,
    (await api('POST', '/api/identity-provider/list', { token, body: { page: 0, size: 20, filter: { crProcessId: account.crProcessId } } })).body,
    (await api('GET', `/api/identity-provider/${created.id}/history`, { token })).body,
    (await api('GET', `/api/search?q=Secretive&crProcessId=${account.crProcessId}`, { token })).body,
  ];
  for (const answer of answers) {
    t.false(JSON.stringify(answer).includes(secret), JSON.stringify(answer).slice(0, 300));
    t.false(JSON.stringify(answer).includes('clientSecret'));
  }
});

test("a mapping names a group of the provider's tenant only, and an issuer must be https (http on loopback outside production)", async (t) => {
  const account = await createAccount();
  const other = await createAccount();
  const foreign = await createGroupWithRoles(other.crProcessId, ['product:read']);
  const token = await admin();
  const base = { crProcessId: account.crProcessId, displayName: 'X', issuer: stub.issuer, clientId: 'x' };
  const mapped = await api('POST', '/api/identity-provider', {
    token,
    body: { ...base, groupMappings: [{ claim: 'groups', value: 'a', groupName: foreign.groupName }] },
  });
  t.is(mapped.status, 400);
  t.is(mapped.body.error_code, 'SVC-SYS-2001');
  const plain = await api('POST', '/api/identity-provider', { token, body: { ...base, issuer: 'http://login.acme.test' } });
  t.is(plain.status, 400);
  t.is(plain.body.error_code, 'SVC-SYS-2001');
});

/** A stub provider of a fresh tenant, allowing acme.test. */
async function stubProvider(): Promise<any> {
  const account = await createAccount();
  return createProvider({
    crProcessId: account.crProcessId,
    displayName: 'Stub',
    issuer: stub.issuer,
    clientId: stub.clientId,
    clientSecret: stub.clientSecret,
    allowedDomains: ['acme.test'],
  });
}

/** Starts a sign-in in `browser` and answers the callback URL the provider sent it to (not yet called). */
async function callbackOf(providerId: number, browser: SsoBrowser): Promise<string> {
  const walked = await browser.walk(`${platform.url}/api/auth/oidc/${providerId}/start`, 'none', (url) => url.startsWith(CALLBACK));
  return walked.url;
}

const REFUSED = 'single sign-on refused';

/**
 * The callback refused with the one answer of every refusal, and no session; core-svc's log says why,
 * which must be `why` (so that a refusal for another reason fails the test).
 */
async function refusedAtCallback(t: any, browser: SsoBrowser, url: string, why: string): Promise<void> {
  const before = (await logLinesWith(REFUSED)).length;
  const res = await browser.request(url);
  t.is(res.status, 401);
  t.is(((await res.json()) as { error_code: string }).error_code, 'SVC-SYS-1002');
  t.is(browser.cookie(platform.url, 'SVC_SESSION'), undefined, 'no session');
  let reasons: string[] = [];
  for (let i = 0; i < 50 && reasons.length === 0; i++) {
    reasons = (await logLinesWith(REFUSED)).slice(before).map((line) => `${String(line.entry.reason)} ${String(line.entry.detail ?? '')}`);
    if (reasons.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  t.true(
    reasons.some((reason) => reason.includes(why)),
    `${why} in ${reasons.join(' | ')}`,
  );
}

const honest = () => {
  const subject = unique('stub-');
  return { sub: subject, email: `${subject}@acme.test`, email_verified: true, name: 'Stub Person' };
};

test.serial('an honest ID token of the stub provider signs in (the control of the refusals below)', async (t) => {
  const provider = await stubProvider();
  stub.next(honest());
  const browser = new SsoBrowser();
  const res = await browser.request(await callbackOf(provider.id, browser));
  t.is(res.status, 302);
  t.is(res.headers.get('location'), '/console/');
  t.is((await api('GET', '/api/auth/me', { token: browser.cookie(platform.url, 'SVC_SESSION') })).status, 200);
});

test.serial('a forged state, a replayed state and a state of another browser are refused', async (t) => {
  const provider = await stubProvider();
  stub.next(honest());
  const forger = new SsoBrowser();
  const url = new URL(await callbackOf(provider.id, forger));
  url.searchParams.set('state', 'forged-state-value');
  await refusedAtCallback(t, forger, url.href, 'unknown or used state');

  const browser = new SsoBrowser();
  const callback = await callbackOf(provider.id, browser);
  const binding = browser.cookie(platform.url, 'SVC_OIDC') ?? '';
  t.is((await browser.request(callback)).status, 302);
  const replay = new SsoBrowser();
  replay.setCookie(platform.url, 'SVC_OIDC', binding);
  await refusedAtCallback(t, replay, callback, 'unknown or used state');

  stub.next(honest());
  const started = new SsoBrowser();
  const elsewhere = await callbackOf(provider.id, started);
  await refusedAtCallback(t, new SsoBrowser(), elsewhere, 'state of another browser');
});

for (const [title, twist, why] of [
  ['a wrong nonce', { nonce: 'not-the-nonce' }, 'claim nonce'],
  ['a wrong issuer', { iss: 'http://127.0.0.1:9/elsewhere' }, 'claim iss'],
  ['a wrong audience', { aud: 'another-client' }, 'claim aud'],
  ['an expired ID token', { iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 }, 'claim exp'],
] as const) {
  test.serial(`an ID token with ${title} is refused with 401 SVC-SYS-1002`, async (t) => {
    const provider = await stubProvider();
    stub.next(honest(), twist);
    const browser = new SsoBrowser();
    await refusedAtCallback(t, browser, await callbackOf(provider.id, browser), why);
  });
}

test.serial('an e-mail outside the allowed domains, or not verified, is refused', async (t) => {
  const provider = await stubProvider();
  for (const person of [
    { ...honest(), email: `${unique('x')}@elsewhere.test` },
    { ...honest(), email_verified: false },
  ]) {
    stub.next(person);
    const browser = new SsoBrowser();
    await refusedAtCallback(t, browser, await callbackOf(provider.id, browser), 'outside the allowed domains');
  }
});

test("a tenant administrator configures its tenant's providers, and maps claims to groups only holding group-member:write", async (t) => {
  const account = await createAccount();
  const group = await createGroupWithRoles(account.crProcessId, ['product:read']);
  const base = { crProcessId: account.crProcessId, displayName: 'Tenant IdP', issuer: stub.issuer, clientId: 'x' };
  const mappings = [{ claim: 'groups', value: 'a', groupName: group.groupName }];
  const configurer = await userWithRoles(account, ['identity-provider:read', 'identity-provider:write']);
  const plain = await api('POST', '/api/identity-provider', { token: configurer.token, body: base });
  t.is(plain.status, 200, plain.text);
  const mapped = await api('POST', '/api/identity-provider', { token: configurer.token, body: { ...base, groupMappings: mappings } });
  t.is(mapped.status, 403);
  t.is(mapped.body.error_code, 'SVC-SYS-1003');
  const granter = await userWithRoles(account, ['identity-provider:write', 'group-member:write']);
  t.is((await api('POST', '/api/identity-provider', { token: granter.token, body: { ...base, groupMappings: mappings } })).status, 200);
  // another tenant's providers are not its to configure
  const other = await createAccount();
  const foreign = await api('POST', '/api/identity-provider', { token: granter.token, body: { ...base, crProcessId: other.crProcessId } });
  t.is(foreign.status, 403);
  t.is(foreign.body.error_code, 'SVC-SYS-1003');
});

test('a passive provider is neither listed nor started, and the return path stays in the console', async (t) => {
  const account = await createAccount();
  const provider = await createProvider({ crProcessId: account.crProcessId, displayName: 'Soon passive', issuer: stub.issuer, clientId: stub.clientId });
  const listed = async () => (await api('GET', `/api/auth/oidc/providers?accountNo=${encodeURIComponent(account.accountNo)}`)).body.providers;
  t.deepEqual(await listed(), [{ id: provider.id, displayName: 'Soon passive' }]);
  const start = (returnTo: string) => api('GET', `/api/auth/oidc/${provider.id}/start?returnTo=${encodeURIComponent(returnTo)}`);
  t.is((await start('/console/product')).status, 302);
  for (const elsewhere of ['https://evil.test/', '//evil.test/', '/console/\\evil.test', '/api/auth/me']) {
    const res = await start(elsewhere);
    t.is(res.status, 400, elsewhere);
    t.is(res.body.error_code, 'SVC-SYS-2001');
  }
  const token = await admin();
  t.is((await api('PUT', `/api/identity-provider/${provider.id}`, { token, body: { version: provider.version, status: false } })).status, 200);
  const gone = await start('/console/');
  t.is(gone.status, 404);
  t.is(gone.body.error_code, 'SVC-SYS-4001');
  t.deepEqual(await listed(), []);
});

test.serial('a provisioned user made passive is refused at its next sign-in', async (t) => {
  const provider = await stubProvider();
  const person = honest();
  stub.next(person);
  const first = new SsoBrowser();
  t.is((await first.request(await callbackOf(provider.id, first))).status, 302);
  const token = await admin();
  const found = await api('POST', '/api/user-info/list', {
    token,
    body: { page: 0, size: 1, filter: { crProcessId: provider.crProcessId, userCode: person.email } },
  });
  const [user] = found.body.content;
  t.is((await api('PUT', `/api/user-info/${user.id}`, { token, body: { version: user.version, status: false } })).status, 200);
  stub.next(person);
  const again = new SsoBrowser();
  await refusedAtCallback(t, again, await callbackOf(provider.id, again), 'user passive');
});
