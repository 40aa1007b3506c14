/**
 * The console's personal access token pages in Chromium (docs/interface.md#personal-access-tokens):
 * a user makes a token of some of its roles in the current tenant and sees it once, lists it with
 * its last use and revokes it; who manages the tenant's users sees and revokes every user's token
 * there, and nobody else sees that page's list.
 */
import test from 'ava';
import type { Browser } from 'playwright-core';
import { accessTokenFor } from './helpers/access-tokens.ts';
import { consoleUrl, openConsole, screenshot, scriptErrorWatch } from './helpers/console.ts';
import { createAccount, createBranch, createPartner, userWithRoles } from './helpers/factories.ts';
import { api } from './helpers/platform.ts';

const { errors, watch } = scriptErrorWatch();
const browsers: Browser[] = [];

test.after.always(async () => {
  await Promise.all(browsers.map((browser) => browser.close()));
});

test.serial('a user creates a token of a role it picks, sees it once, finds it listed with its last use and revokes it', async (t) => {
  const account = await createAccount();
  const user = await userWithRoles(account, ['branch:read', 'business-partner:read']);
  const branch = await createBranch(account.crProcessId, (await createPartner(account.crProcessId)).id);
  const { browser, page } = await openConsole(watch, { as: { userCode: user.userCode, password: user.password } });
  browsers.push(browser);

  await page.goto(consoleUrl('/access-tokens'));
  await page.getByRole('heading', { name: 'My access tokens' }).waitFor();
  const form = page.getByRole('form', { name: 'New token' });
  await form.getByLabel('Name').fill('ci pipeline');
  // the roles offered are those the user holds in the current tenant
  t.deepEqual((await form.getByRole('checkbox').all()).length, 2);
  await form.getByRole('checkbox', { name: 'branch:read' }).check();
  await form.getByRole('button', { name: 'Create token' }).click();

  const dialog = page.getByRole('dialog', { name: 'Your new token' });
  await dialog.waitFor();
  const token = await dialog.getByLabel('Token').inputValue();
  t.regex(token, /^svcpat_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
  await screenshot(page, 'access-token-shown-once');
  await dialog.getByRole('button', { name: 'I have stored it' }).click();

  // the token works, with its role alone
  t.is((await api('GET', `/api/branch/${branch.id}`, { token })).status, 200);
  t.is((await api('GET', `/api/business-partner/${branch.businessPartnerId}`, { token })).status, 403);

  // listed, with its last use, never with its secret
  // (the use is written as the call is served, without holding it up: give it a moment)
  await new Promise((resolve) => setTimeout(resolve, 300));
  await page.reload();
  const row = page.getByRole('row').filter({ hasText: 'ci pipeline' });
  await row.waitFor();
  await row.getByText(/from \S*(127\.0\.0\.1|::1)/).waitFor();
  t.regex(await row.innerText(), /branch:read/);
  t.false((await page.content()).includes(token.slice(40)), 'the secret is not on the page');

  await row.getByRole('button', { name: 'Revoke' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke token ci pipeline?' });
  await confirm.getByRole('button', { name: 'Revoke token' }).click();
  await page.getByRole('status').filter({ hasText: 'Token ci pipeline is revoked.' }).waitFor();
  await row.getByText(`revoked by ${user.userCode}`).waitFor();
  t.is((await api('GET', `/api/branch/${branch.id}`, { token })).status, 401, 'refused at the next request');
});

test.serial("the tenant's page lists every user's token to who holds user-info:write there, who revokes it; a user without it sees no list", async (t) => {
  const account = await createAccount();
  const [owner, admin, clerk] = await Promise.all([
    userWithRoles(account, ['branch:read']),
    userWithRoles(account, ['user-info:read', 'user-info:write']),
    userWithRoles(account, ['user-info:read']),
  ]);
  const { token } = await accessTokenFor(owner.token, account.crProcessId, ['branch:read']);

  const asAdmin = await openConsole(watch, { as: { userCode: admin.userCode, password: admin.password } });
  browsers.push(asAdmin.browser);
  const page = asAdmin.page;
  await page.getByRole('link', { name: "Tenant's access tokens" }).click();
  await page.getByRole('heading', { name: "Tenant's access tokens" }).waitFor();
  const row = page.getByRole('row').filter({ hasText: owner.userCode });
  await row.waitFor();
  await row.getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('dialog', { name: 'Revoke token integration?' }).getByRole('button', { name: 'Revoke token' }).click();
  await row.getByText(`revoked by ${admin.userCode}`).waitFor();
  await screenshot(page, 'access-tokens-tenant');
  t.is((await api('GET', '/api/auth/me', { token })).status, 401);

  const asClerk = await openConsole(watch, { as: { userCode: clerk.userCode, password: clerk.password } });
  browsers.push(asClerk.browser);
  t.is(await asClerk.page.getByRole('link', { name: "Tenant's access tokens" }).count(), 0, 'no menu entry');
  await asClerk.page.goto(consoleUrl('/access-tokens/tenant'));
  await asClerk.page.getByText("Only who manages this tenant's users (user-info:write) sees its tokens.").waitFor();
  t.is(await asClerk.page.getByRole('row').count(), 0);
});

test.serial('the pages ran without a script error', (t) => {
  t.deepEqual(errors, []);
});
