/**
 * The console's generic CRUD pages in a real Chromium, through the page only as a user would
 * (docs/adr/0088-the-console-shell-and-generic-pages.md): a list paged with the keyboard alone,
 * create, search, filter, sort, edit and delete business partners, branches (with the partner
 * picker) and products, a version conflict reloaded with the edit kept, Turkish words and platform
 * errors, and a read-only user who is offered nothing more. The shell around the pages (tenant
 * switch, logout, a session ended under a page, password change) is console-shell.test.ts.
 * Selectors are roles and labels, which also proves the controls have accessible names.
 * Screenshots go to test-output/console/.
 */
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from './helpers/axe.ts';
import { consoleUrl, CRUD_ROLES, logIn, openConsole, screenshot, scriptErrorWatch } from './helpers/console.ts';
import { createAccount, createBranch, createPartner, createProduct, unique, userWithRoles, type TenantUser } from './helpers/factories.ts';
import { api } from './helpers/platform.ts';

/** A 409 SVC-SYS-4003 in the console's Turkish words (resources/error-messages.ts `referenced`). */
const REFERENCED_TR = 'bağlı olduğu için silinemez';

let browser: Browser;
let page: Page;
let account: { accountNo: string; crProcessId: number };
let user: TenantUser;
/** Script errors and CSP refusals any page of the file met: there must be none. */
const { errors: scriptErrors, watch } = scriptErrorWatch();

test.before(async () => {
  account = await createAccount();
  user = await userWithRoles(account, CRUD_ROLES);
  // 25 products: two pages of 20
  for (let index = 0; index < 25; index++) await createProduct(account.crProcessId, { productName: `Stock ${String(index).padStart(2, '0')}` });
  ({ browser, page } = await openConsole(watch));
});

test.after.always(async () => {
  await browser?.close();
});

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
  await page.goto(consoleUrl('/product'));
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
  await page.getByText('Filters', { exact: true }).click();
  t.deepEqual(await seriousViolations(page), [], 'a list with its filters open');
});

test.serial('business partners: create, search, filter by a field, sort by a header, edit and delete', async (t) => {
  const name = unique('Acme ');
  const other = await createPartner(account.crProcessId, { partnerName: unique('Zeta '), partnerType: 'CUSTOMER' });
  await page.getByRole('link', { name: 'Business partners' }).click();
  await page.getByRole('heading', { level: 1, name: 'Business partners' }).waitFor();
  await page.getByRole('link', { name: /^Create/ }).click();
  await page.getByRole('heading', { level: 1, name: /^New / }).waitFor();
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
  await page.getByText('Filters', { exact: true }).click();
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
  await page.getByRole('heading', { level: 1, name: /^New / }).waitFor();
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
  await page.getByRole('heading', { level: 1, name: /^New / }).waitFor();
  await page.getByLabel('Product code').fill(unique('PR-'));
  await page.getByLabel('Product name').fill(name);
  await page.getByLabel('Unit price').fill('12.5');
  await page.getByLabel(/^Currency\b/).fill('EUR');
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
  t.regex(
    (await dialog.getByRole('alert').textContent()) ?? '',
    /Someone else changed this record while you were working on it\. Reload it to see their changes; your edits are kept\..*SVC-SYS-4002/,
  );
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
  await page.goto(consoleUrl(`/business-partner/${partner.id}`));
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
  await page.getByLabel('Dil', { exact: true }).selectOption('en');
  await page.getByRole('button', { name: 'Log out' }).waitFor();
});

test.serial('a user with only branch:read is offered no create, edit or delete on branches and no business-partner menu', async (t) => {
  const reader = await userWithRoles(account, ['branch:read']);
  const partner = await createPartner(account.crProcessId);
  const branch = await createBranch(account.crProcessId, partner.id);
  const own = await browser.newContext();
  const readerPage = watch(await own.newPage());
  await readerPage.goto(consoleUrl('/branch'));
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
  await readerPage.goto(consoleUrl('/business-partner'));
  await readerPage.getByRole('alert').filter({ hasText: 'Your roles do not allow this.' }).waitFor();
  await own.close();
});
test.serial('no page met a script error or a refusal of its content security policy', (t) => {
  t.deepEqual(scriptErrors, []);
});
