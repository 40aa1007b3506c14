/**
 * The console's shell and generic CRUD pages in a real Chromium, through the page only as a user
 * would (docs/decisions.md "The console"): log in, create, search, filter, sort, edit and delete
 * business partners, branches (with the partner picker) and products, a version conflict reloaded
 * with the edit kept, a tenant switch, Turkish words and platform errors, a read-only user who is
 * offered nothing more, keyboard-only login and paging, and logout. Selectors are roles and
 * labels, which also proves the controls have accessible names. Screenshots go to
 * test-output/console/.
 */
import test from 'ava';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seriousViolations } from './helpers/axe.ts';
import { launchChromium } from './helpers/chromium.ts';
import { logIn, screenshot } from './helpers/console.ts';
import {
  adminSession,
  createAccount,
  createBranch,
  createGroupWithRoles,
  createPartner,
  createProduct,
  createUser,
  unique,
  userWithRoles,
  type TenantUser,
} from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';

const CRUD_ROLES = ['business-partner', 'branch', 'product'].flatMap((path) => [`${path}:read`, `${path}:write`, `${path}:delete`]);
/** libs/src/i18n/messages.ts: `record.referenced` in Turkish. */
const REFERENCED_TR = 'Kayıt başka kayıtlar tarafından kullanılıyor';

let browser: Browser;
let context: BrowserContext;
let page: Page;
let account: { accountNo: string; crProcessId: number };
let user: TenantUser;
/** Script errors and CSP refusals any page of the file met: there must be none. */
const scriptErrors: string[] = [];

/** Notes what a page's script could not do (an exception, a refused script or style). */
function watch(on: Page): Page {
  on.on('pageerror', (error) => scriptErrors.push(`${on.url()}: ${error.message}`));
  on.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) scriptErrors.push(`${on.url()}: ${message.text()}`);
  });
  return on;
}

test.before(async () => {
  account = await createAccount();
  user = await userWithRoles(account, CRUD_ROLES);
  // 25 products: two pages of 20
  for (let index = 0; index < 25; index++) await createProduct(account.crProcessId, { productName: `Stock ${String(index).padStart(2, '0')}` });
  browser = await launchChromium();
  context = await browser.newContext();
  page = watch(await context.newPage());
});

test.after.always(async () => {
  await browser?.close();
});

const console_ = (path: string) => `${platform.url}/console${path}`;

/** The accessible name of the focused element, as a label, text or aria-label gives it. */
function focusedName(on: Page): Promise<string> {
  return on.evaluate(`(() => {
    const el = document.activeElement;
    if (!el) return '';
    const labelled = el.id ? document.querySelector('label[for="' + el.id + '"]') : null;
    return (el.getAttribute('aria-label') || (labelled && labelled.textContent) || el.textContent || '').trim();
  })()`);
}

/** The texts of the list's rows' cells of one column (by its header's position). */
async function column(on: Page, header: string): Promise<string[]> {
  const headers = await on.locator('main table thead th').allTextContents();
  const index = headers.findIndex((text) => text.replace(/[▲▼↕]/g, '').trim() === header);
  if (index < 0) throw new Error(`no column ${header} among ${headers.join(', ')}`);
  return on.locator(`main table tbody tr td:nth-child(${index + 1})`).allTextContents();
}

test.serial('a user logs in and pages a list with the keyboard alone, in the order search, filters, headers, rows, pagination', async (t) => {
  await page.goto(console_('/product'));
  await page.waitForURL(/\/console\/login\?to=/);
  await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
  await screenshot(page, 'login');
  t.deepEqual(await seriousViolations(page), [], 'the login page');

  await page.keyboard.press('Tab');
  t.is(await focusedName(page), 'User code');
  await page.keyboard.type(user.userCode);
  await page.keyboard.press('Tab');
  t.is(await focusedName(page), 'Password');
  await page.keyboard.type(user.password);
  await page.keyboard.press('Tab');
  t.is(await focusedName(page), 'Language');
  await page.keyboard.press('Tab');
  t.is(await focusedName(page), 'Log in');
  await page.keyboard.press('Enter');

  // back where the user was going, the page's h1 focused
  await page.getByRole('heading', { level: 1, name: 'Products' }).waitFor();
  t.regex(page.url(), /\/console\/product/);
  t.is(await page.evaluate('document.activeElement.tagName'), 'H1');
  await page.getByText('Page 1 of 2 (25 records)').waitFor();

  const seen: string[] = [];
  for (let step = 0; step < 200 && seen.at(-1) !== 'Next page'; step++) {
    await page.keyboard.press('Tab');
    seen.push(await focusedName(page));
  }
  const at = (name: string | RegExp) => seen.findIndex((each) => (typeof name === 'string' ? each === name : name.test(each)));
  t.true(at('Search') >= 0 && at('Search') < at(/^Filters/), seen.join(' | '));
  t.true(at(/^Filters/) < at(/^Product name/), seen.join(' | '));
  t.true(at(/^Product name/) < at(/^Stock \d\d$/), seen.join(' | '));
  t.true(at(/^Stock \d\d$/) < at('Next page'), seen.join(' | '));
  await page.keyboard.press('Enter');
  await page.getByText('Page 2 of 2 (25 records)').waitFor();
  t.is(await page.locator('main table tbody tr').count(), 5);
  // the keyboard stays on the button, now at the last page; Shift+Tab and Enter page back
  t.is(await focusedName(page), 'Next page');
  await page.keyboard.press('Shift+Tab');
  t.is(await focusedName(page), 'Previous page');
  await page.keyboard.press('Enter');
  await page.getByText('Page 1 of 2 (25 records)').waitFor();
  await page.keyboard.press('Tab');
  t.is(await focusedName(page), 'Next page');
  await page.keyboard.press('Enter');
  await page.getByText('Page 2 of 2 (25 records)').waitFor();
  await screenshot(page, 'list');
  await page.getByText('Filters').click();
  t.deepEqual(await seriousViolations(page), [], 'a list with its filters open');
});

test.serial('business partners: create, search, filter by a field, sort by a header, edit and delete', async (t) => {
  const name = unique('Acme ');
  const other = await createPartner(account.crProcessId, { partnerName: unique('Zeta '), partnerType: 'CUSTOMER' });
  await page.getByRole('link', { name: 'Business partners' }).click();
  await page.getByRole('heading', { level: 1, name: 'Business partners' }).waitFor();
  await page.getByRole('link', { name: /^Create/ }).click();
  await page.getByLabel('Partner code').fill(unique('P-'));
  await page.getByLabel('Partner name').fill(name);
  await page.getByLabel('Partner type').selectOption('SUPPLIER');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1, name: `Business partner ${name}` }).waitFor();
  const id = Number(page.url().split('/').at(-1));
  t.is((await api('GET', `/api/business-partner/${id}`, { token: user.token })).body.partnerType, 'SUPPLIER');

  // search
  await page.getByRole('link', { name: 'Back to the list' }).click();
  await page.getByRole('searchbox', { name: 'Search' }).fill(name);
  await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
  await page.getByText('Page 1 of 1 (1 records)').waitFor();
  t.deepEqual(await column(page, 'Partner name'), [name]);
  await page.getByRole('searchbox', { name: 'Search' }).fill('');
  await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
  await page.getByText('Page 1 of 1 (2 records)').waitFor();

  // a field's filter
  await page.getByText('Filters').click();
  await page.getByLabel('Partner type').selectOption('CUSTOMER');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByText('Page 1 of 1 (1 records)').waitFor();
  t.deepEqual(await column(page, 'Partner name'), [other.partnerName]);
  await page.getByRole('button', { name: 'Clear' }).click();
  await page.getByText('Page 1 of 1 (2 records)').waitFor();

  // sort by clicking the header: ascending, then descending
  const header = page.locator('th', { has: page.getByRole('button', { name: 'Partner name' }) });
  await page.getByRole('button', { name: 'Partner name' }).click();
  await header.and(page.locator('[aria-sort="ascending"]')).waitFor();
  await page.locator('main tbody tr').first().getByRole('link', { name }).waitFor();
  t.deepEqual(await column(page, 'Partner name'), [name, other.partnerName]);
  await page.getByRole('button', { name: 'Partner name' }).click();
  await header.and(page.locator('[aria-sort="descending"]')).waitFor();
  await page.locator('main tbody tr').first().getByRole('link', { name: other.partnerName }).waitFor();
  t.deepEqual(await column(page, 'Partner name'), [other.partnerName, name]);

  // edit
  await page.getByRole('link', { name }).click();
  await page.getByRole('link', { name: 'Edit' }).click();
  await page.getByLabel('Phone').fill('+90 212 555 0000');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1, name: `Business partner ${name}` }).waitFor();
  await page.getByText('Phone: — → +90 212 555 0000').waitFor();
  t.is((await api('GET', `/api/business-partner/${id}`, { token: user.token })).body.phone, '+90 212 555 0000');

  // delete, after the confirmation
  await page.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: /^Delete Business partner/ });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('heading', { level: 1, name: 'Business partners' }).waitFor();
  t.is((await api('GET', `/api/business-partner/${id}`, { token: user.token })).status, 404);
});

test.serial('branches: the partner is chosen in a picker by its name and shown by it; edit and delete', async (t) => {
  const partner = await createPartner(account.crProcessId, { partnerName: unique('Picker partner ') });
  const name = unique('Harbour ');
  await page.getByRole('link', { name: 'Branches' }).click();
  await page.getByRole('heading', { level: 1, name: 'Branches' }).waitFor();
  await page.getByRole('link', { name: /^Create/ }).click();
  const picker = page.getByRole('combobox', { name: 'Business partner' });
  await picker.fill(partner.partnerName.slice(0, 18));
  await page.getByRole('option', { name: new RegExp(partner.partnerName) }).waitFor();
  await picker.press('ArrowDown');
  await picker.press('Enter');
  t.is(await picker.inputValue(), `${partner.partnerName} (${partner.id})`);
  await page.getByLabel('Branch name').fill(name);
  await page.getByLabel('Branch code').fill(unique('B-'));
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1, name: `Branch ${name}` }).waitFor();
  const id = Number(page.url().split('/').at(-1));
  t.is((await api('GET', `/api/branch/${id}`, { token: user.token })).body.businessPartnerId, partner.id);
  // the reference is shown by the partner's name
  await page.locator('dd', { hasText: partner.partnerName }).waitFor();

  await page.getByRole('link', { name: 'Edit' }).click();
  await page.getByLabel('Branch name').fill(`${name} renamed`);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1, name: `Branch ${name} renamed` }).waitFor();

  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('heading', { level: 1, name: 'Branches' }).waitFor();
  t.is((await api('GET', `/api/branch/${id}`, { token: user.token })).status, 404);
});

test.serial('products: create, edit and delete; a version conflict shows a dialog, reload keeps the edit, and the save then passes', async (t) => {
  const name = unique('Widget ');
  await page.getByRole('link', { name: 'Products' }).click();
  await page.getByRole('heading', { level: 1, name: 'Products' }).waitFor();
  await page.getByRole('link', { name: /^Create/ }).click();
  await page.getByLabel('Product code').fill(unique('PR-'));
  await page.getByLabel('Product name').fill(name);
  await page.getByLabel('Unit price').fill('12.5');
  await page.getByLabel('Currency code').fill('EUR');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1, name: `Product ${name}` }).waitFor();
  const id = Number(page.url().split('/').at(-1));
  t.is(Number((await api('GET', `/api/product/${id}`, { token: user.token })).body.unitPrice), 12.5);
  await page.getByRole('heading', { name: 'History' }).waitFor();
  await screenshot(page, 'record');
  t.deepEqual(await seriousViolations(page), [], 'a record page');

  await page.getByRole('link', { name: 'Edit' }).click();
  await page.getByLabel('Unit', { exact: true }).fill('box');
  await screenshot(page, 'edit');
  t.deepEqual(await seriousViolations(page), [], 'an edit form');
  // someone else changes the record meanwhile
  const theirs = await api('PUT', `/api/product/${id}`, { token: user.token, body: { productName: `${name} (theirs)`, version: 0 } });
  t.is(theirs.status, 200, theirs.text);

  await page.getByRole('button', { name: 'Save' }).click();
  const dialog = page.getByRole('dialog', { name: 'The record changed meanwhile' });
  await dialog.waitFor();
  t.regex((await dialog.getByRole('alert').textContent()) ?? '', /reload it and try again.*SVC-SYS-4002/);
  t.deepEqual(await seriousViolations(page), [], 'the conflict dialog');
  await dialog.getByRole('button', { name: 'Reload' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page.getByRole('status').filter({ hasText: 'Product name' }).waitFor();
  t.is(await page.getByLabel('Unit', { exact: true }).inputValue(), 'box');
  t.is(await page.getByLabel('Product name').inputValue(), `${name} (theirs)`);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1, name: `Product ${name} (theirs)` }).waitFor();
  const saved = (await api('GET', `/api/product/${id}`, { token: user.token })).body;
  t.like(saved, { unit: 'box', productName: `${name} (theirs)`, version: 2 });

  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('heading', { level: 1, name: 'Products' }).waitFor();
  t.is((await api('GET', `/api/product/${id}`, { token: user.token })).status, 404);
});

test.serial("in Turkish the console's words and the platform's errors are Turkish; Escape closes a dialog", async (t) => {
  const partner = await createPartner(account.crProcessId, { partnerName: unique('Referenced ') });
  await createBranch(account.crProcessId, partner.id);
  await page.goto(console_(`/business-partner/${partner.id}`));
  await page.getByRole('heading', { level: 1, name: `Business partner ${partner.partnerName}` }).waitFor();
  await page.getByLabel('Language').selectOption('tr');
  await page.getByRole('button', { name: 'Çıkış yap' }).waitFor();
  t.true(await page.getByRole('heading', { name: 'Geçmiş' }).isVisible());
  await page.getByRole('button', { name: 'Sil' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Sil' }).click();
  await dialog.getByRole('alert').filter({ hasText: REFERENCED_TR }).waitFor();
  t.true((await dialog.getByRole('alert').textContent())?.includes('SVC-SYS-4003'));
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  t.is((await api('GET', `/api/business-partner/${partner.id}`, { token: user.token })).status, 200);
  await page.getByLabel('Dil').selectOption('en');
  await page.getByRole('button', { name: 'Log out' }).waitFor();
});

test.serial('a user with only branch:read is offered no create, edit or delete on branches and no business-partner menu', async (t) => {
  const reader = await userWithRoles(account, ['branch:read']);
  const partner = await createPartner(account.crProcessId);
  const branch = await createBranch(account.crProcessId, partner.id);
  const own = await browser.newContext();
  const readerPage = watch(await own.newPage());
  await readerPage.goto(console_('/branch'));
  await logIn(readerPage, reader.userCode, reader.password);
  await readerPage.getByRole('heading', { level: 1, name: 'Branches' }).waitFor();
  const nav = readerPage.getByRole('navigation', { name: 'Main' });
  const menu = await nav.getByRole('link').allTextContents();
  t.true(menu.includes('Branches'), menu.join(', '));
  t.false(menu.includes('Business partners'), menu.join(', '));
  t.is(await readerPage.getByRole('link', { name: /^Create/ }).count(), 0);
  await readerPage.getByRole('link', { name: branch.branchName }).click();
  await readerPage.getByRole('heading', { name: 'History' }).waitFor();
  t.is(await readerPage.getByRole('link', { name: 'Edit' }).count(), 0);
  t.is(await readerPage.getByRole('button', { name: 'Delete' }).count(), 0);
  await readerPage.goto(console_('/business-partner'));
  await readerPage.getByRole('alert').filter({ hasText: 'Your roles do not allow this.' }).waitFor();
  await own.close();
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
  await switcherPage.goto(console_('/branch'));
  await logIn(switcherPage, switcher.userCode, password);
  await switcherPage.getByRole('link', { name: here.branchName }).waitFor();
  await switcherPage.getByLabel('Tenant').selectOption(second.accountNo);
  await switcherPage.getByRole('link', { name: there.branchName }).waitFor();
  t.is(await switcherPage.getByRole('link', { name: here.branchName }).count(), 0);
  await own.close();
});

test.serial('logout ends the session: the console asks for a login again', async (t) => {
  await page.goto(console_('/product'));
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
  await page.goto(console_('/product'));
  await page.waitForURL(/\/console\/login/);
  t.true(await page.getByLabel('User code').isVisible());
  // the super user's session is untouched by this one's logout
  t.is((await api('GET', '/api/auth/me', { token: (await adminSession()).token })).status, 200);
});

test.serial("a super user's lists show the tenant chosen in the tenant picker", async (t) => {
  const own = await browser.newContext();
  const adminPage = watch(await own.newPage());
  const partner = await createPartner(account.crProcessId, { partnerName: unique('Elsewhere ') });
  await adminPage.goto(console_('/business-partner'));
  await logIn(adminPage, platform.adminUser, platform.adminPassword);
  await adminPage.getByRole('heading', { level: 1, name: 'Business partners' }).waitFor();
  t.is(await adminPage.getByLabel('Tenant', { exact: true }).inputValue(), '1');
  t.is(await adminPage.getByRole('link', { name: partner.partnerName }).count(), 0);
  await adminPage.getByLabel('Tenant', { exact: true }).fill(String(account.crProcessId));
  await adminPage.getByRole('link', { name: partner.partnerName }).waitFor();
  await adminPage.getByText(account.accountNo).waitFor();
  await own.close();
});

test.serial('a session that ends under a page sends the user to the login, and the login back to that page', async (t) => {
  const own = await browser.newContext();
  const ended = watch(await own.newPage());
  await ended.goto(console_('/product'));
  await logIn(ended, user.userCode, user.password);
  await ended.getByRole('heading', { level: 1, name: 'Products' }).waitFor();
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
  await changing.goto(console_('/change-password'));
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
  await changing.getByRole('heading', { level: 1, name: 'Welcome' }).waitFor();
  await own.close();
});

test.serial('no page met a script error or a refusal of its content security policy', (t) => {
  t.deepEqual(scriptErrors, []);
});
