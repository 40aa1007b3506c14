/**
 * Single sign-on in a real Chromium, as a user would (docs/interface.md#single-sign-on,
 * docs/adr/0130-single-sign-on-per-tenant.md … 0133): the login page offers "Sign in with <name>"
 * for the account's providers; the user signs in at a real OpenID provider (oidc-provider on
 * loopback), lands on the console's dashboard as the provisioned user holding the mapped group's
 * roles; logout ends the session and the provider's (RP-initiated logout).
 */
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { consoleUrl, openConsole, scriptErrorWatch } from './helpers/console.ts';
import { adminSession, createAccount, createGroupWithRoles, unique } from './helpers/factories.ts';
import { startTestProvider, type TestProvider } from './helpers/oidc-provider.ts';
import { api, platform } from './helpers/platform.ts';

let browser: Browser;
let page: Page;
let idp: TestProvider;
const { errors: scriptErrors, watch } = scriptErrorWatch();

test.before(async () => {
  idp = await startTestProvider(platform.url);
  ({ browser, page } = await openConsole(watch));
});

test.after.always(async () => {
  await browser?.close();
  await idp?.close();
});

test.serial(
  '"Sign in with <name>" signs in at the provider and lands on the dashboard as the provisioned user with the mapped roles; logout ends both sessions',
  async (t) => {
    const account = await createAccount();
    const sales = await createGroupWithRoles(account.crProcessId, ['business-partner:read']);
    const created = await api('POST', '/api/identity-provider', {
      token: (await adminSession()).token,
      body: {
        crProcessId: account.crProcessId,
        displayName: 'Acme Login',
        issuer: idp.issuer,
        clientId: idp.clientId,
        clientSecret: idp.clientSecret,
        allowedDomains: ['acme.test'],
        groupMappings: [{ claim: 'groups', value: 'sales', groupName: sales.groupName }],
      },
    });
    t.is(created.status, 200, created.text);
    const subject = unique('deniz-');
    const email = `${subject}@acme.test`;
    idp.account(subject, { email, email_verified: true, name: 'Deniz Kaya', groups: ['sales'] });

    await page.goto(consoleUrl(`/login?account=${encodeURIComponent(account.accountNo)}`));
    await page.getByRole('link', { name: 'Sign in with Acme Login' }).click();
    // the provider's own pages: its login form (by account id), then its consent
    await page.locator('input[name="login"]').fill(subject);
    await page.locator('input[name="password"]').fill('any-password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.getByRole('button', { name: 'Log out' }).waitFor();
    t.true(page.url().startsWith(consoleUrl('/')), page.url());
    const me = (await page.evaluate(async () => (await fetch('/api/auth/me')).json())) as { userCode: string; accountNo: string; roles: string[] };
    t.is(me.userCode, email);
    t.is(me.accountNo, account.accountNo);
    t.true(me.roles.includes('business-partner:read'));
    await t.notThrowsAsync(page.getByText(email).first().waitFor());

    await page.getByRole('button', { name: 'Log out' }).click();
    // the provider asks to confirm its own logout, then sends the browser back to the console
    await page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    t.true(page.url().startsWith(consoleUrl('/')), page.url());
    t.is(await page.evaluate(async () => (await fetch('/api/auth/me')).status), 401);
  },
);

test.serial('a refused sign-in brings the browser back to the login page, which says so', async (t) => {
  await page.goto(`${platform.url}/api/auth/oidc/callback?code=x&state=forged-state-value`);
  await page.getByText('Single sign-on failed: sign in again.').waitFor();
  t.true(page.url().startsWith(consoleUrl('/login')), page.url());
  t.is(await page.evaluate(async () => (await fetch('/api/auth/me')).status), 401);
});

test.serial("the console's own pages met no script error", (t) => {
  t.deepEqual(
    scriptErrors.filter((error) => error.startsWith(platform.url)),
    [],
  );
});
