/**
 * The console's session shell in a real Chromium, through the page only as a user would
 * (docs/adr/0088-the-console-shell-and-generic-pages.md): "a 401 SVC-SYS-1001 on any call
 * clears the query cache and opens `/login?ended=1&to=<where the user was>`; the login returns
 * there", "lists and creates use the current tenant. A super user's picker is a tenant number",
 * a tenant switch, logout, and a changed password that ends the session. The CRUD pages inside the
 * shell are console-crud.test.ts. Selectors are roles and labels, which also proves the controls
 * have accessible names.
 */
import test from 'ava';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { consoleUrl, CRUD_ROLES, logIn, openConsole, scriptErrorWatch } from './helpers/console.ts';
import {
  adminSession,
  createAccount,
  createBranch,
  createGroupWithRoles,
  createPartner,
  createUser,
  unique,
  userWithRoles,
  type TenantUser,
} from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';

let browser: Browser;
let context: BrowserContext;
let page: Page;
let account: { accountNo: string; crProcessId: number };
let user: TenantUser;
/** Script errors and CSP refusals any page of the file met: there must be none. */
const { errors: scriptErrors, watch } = scriptErrorWatch();

test.before(async () => {
  account = await createAccount();
  user = await userWithRoles(account, CRUD_ROLES);
  // the user's own session, which the logout below ends
  ({ browser, context, page } = await openConsole(watch, { logInAt: '/product', as: user }));
});

test.after.always(async () => {
  await browser?.close();
});

test.serial("switching tenant shows the other tenant's records", async (t) => {
  const second = await createAccount();
  const { user: switcher, password } = await createUser(
    [account.accountNo, second.accountNo],
    { crProcessId: account.crProcessId },
    { crProcessId: account.crProcessId },
  );
  await createGroupWithRoles(account.crProcessId, ['branch:read'], [switcher.userCode]);
  await createGroupWithRoles(second.crProcessId, ['branch:read'], [switcher.userCode]);
  const here = await createBranch(account.crProcessId, (await createPartner(account.crProcessId)).id, { branchName: unique('Here ') });
  const there = await createBranch(second.crProcessId, (await createPartner(second.crProcessId)).id, { branchName: unique('There ') });
  const own = await browser.newContext();
  const switcherPage = watch(await own.newPage());
  await switcherPage.goto(consoleUrl('/branch'));
  await logIn(switcherPage, switcher.userCode, password);
  await switcherPage.getByRole('link', { name: here.branchName }).waitFor();
  await switcherPage.getByLabel('Tenant').selectOption(second.accountNo);
  await switcherPage.getByRole('link', { name: there.branchName }).waitFor();
  t.is(await switcherPage.getByRole('link', { name: here.branchName }).count(), 0);
  await own.close();
});

test.serial('logout ends the session: the old session cookie is 401 and the console asks for a login again', async (t) => {
  await page.goto(consoleUrl('/product'));
  await page.getByRole('heading', { level: 1, name: 'Products' }).waitFor();
  const session = (await context.cookies()).find((cookie) => cookie.name === 'SVC_SESSION');
  const cookie = `SVC_SESSION=${session?.value}`;
  t.is((await api('GET', '/api/auth/me', { headers: { cookie } })).status, 200, 'the session cookie is live before the logout');
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
  t.falsy(
    (await context.cookies()).find((c) => c.name === 'SVC_SESSION' && c.value === session?.value),
    'the browser drops it',
  );
  // the session itself ended, not only the browser's copy of it
  const old = await api('GET', '/api/auth/me', { headers: { cookie } });
  t.is(old.status, 401, old.text);
  t.is(old.body.error_code, 'SVC-SYS-1001');
  await page.goto(consoleUrl('/product'));
  await page.waitForURL(/\/console\/login/);
  t.true(await page.getByLabel('User code').isVisible());
  // the super user's session is untouched by this one's logout
  t.is((await api('GET', '/api/auth/me', { token: (await adminSession()).token })).status, 200);
});

test.serial("a super user's lists show the tenant chosen in the tenant picker", async (t) => {
  const own = await browser.newContext();
  const adminPage = watch(await own.newPage());
  const partner = await createPartner(account.crProcessId, { partnerName: unique('Elsewhere ') });
  // tenant 1 has a partner, so its loaded list shows a link: the first row its list answered
  await createPartner(1, { partnerName: unique('Home ') });
  const tenantOneList = adminPage.waitForResponse(
    (res) => new URL(res.url()).pathname === '/api/business-partner/list' && res.request().postDataJSON()?.filter?.crProcessId === 1,
  );
  await adminPage.goto(consoleUrl('/business-partner'));
  await logIn(adminPage, platform.adminUser, platform.adminPassword);
  await adminPage.getByRole('heading', { level: 1, name: 'Business partners' }).waitFor();
  t.is(await adminPage.getByLabel('Tenant', { exact: true }).inputValue(), '1');
  const listed = await tenantOneList;
  t.is(listed.status(), 200);
  const firstRow = (await listed.json()).content[0];
  await adminPage.getByRole('link', { name: firstRow.partnerName, exact: true }).waitFor();
  t.is(await adminPage.getByRole('link', { name: partner.partnerName }).count(), 0);
  await adminPage.getByLabel('Tenant', { exact: true }).fill(String(account.crProcessId));
  await adminPage.getByRole('link', { name: partner.partnerName }).waitFor();
  await adminPage.getByText(account.accountNo).waitFor();
  await own.close();
});

test.serial('a session that ends under a page sends the user to the login, and the login back to that page', async (t) => {
  const own = await browser.newContext();
  const ended = watch(await own.newPage());
  await ended.goto(consoleUrl('/product'));
  await logIn(ended, user.userCode, user.password);
  await ended.getByRole('heading', { level: 1, name: 'Products' }).waitFor();
  // the page's own reads done first: one still on its way when the session ends would send the user
  // to the login from this page (to=/product) before the click below could
  await ended.waitForLoadState('networkidle');
  const session = (await own.cookies()).find((cookie) => cookie.name === 'SVC_SESSION');
  t.is((await api('POST', '/api/auth/logout', { token: session?.value })).status, 204);
  await ended.getByRole('link', { name: 'Branches' }).click();
  await ended.waitForURL(/\/console\/login\?ended=1&to=%2Fbranch/);
  await ended.getByText('Your session ended; log in again.').waitFor();
  await logIn(ended, user.userCode, user.password);
  await ended.getByRole('heading', { level: 1, name: 'Branches' }).waitFor();
  t.regex(ended.url(), /\/console\/branch/);
  await own.close();
});

test.serial('a changed password ends the session: the user logs in again with the new one', async (t) => {
  const changer = await userWithRoles(account, ['product:read']);
  const own = await browser.newContext();
  const changing = watch(await own.newPage());
  await changing.goto(consoleUrl('/change-password'));
  await logIn(changing, changer.userCode, changer.password);
  await changing.getByRole('heading', { level: 1, name: 'Change password' }).waitFor();
  const renewed = unique('new-pw-');
  await changing.getByLabel('Current password').fill(changer.password);
  await changing.getByLabel('New password', { exact: true }).fill(renewed);
  await changing.getByLabel('New password again').fill(renewed);
  await changing.getByRole('button', { name: 'Save' }).click();
  await changing.getByText('Password changed: log in with the new one.').waitFor();
  t.is(
    (await api('POST', '/api/auth/login', { apiKey: true, body: { userCode: changer.userCode, password: changer.password, languageCode: 'en' } })).status,
    401,
  );
  await logIn(changing, changer.userCode, renewed);
  await changing.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
  await own.close();
});

test.serial('no page met a script error or a refusal of its content security policy', (t) => {
  t.deepEqual(scriptErrors, []);
});
