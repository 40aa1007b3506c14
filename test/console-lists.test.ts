/**
 * Lists made for people, in a real Chromium (docs/adr/0118-a-list-declares-its-columns.md,
 * 0119-text-filters-match-by-prefix-or.md, 0120-money-and-dates-one-format.md): the partner list
 * shows its declared columns only, a column chosen survives a reload for its user and not for
 * another, a tax number found by its start, the rare filters behind "More filters", money in its
 * currency in English and Turkish, and a date typed the Turkish way filtering a contract list.
 * Every wait requires the rows themselves.
 */
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from './helpers/axe.ts';
import { consoleUrl, logIn, openConsole, screenshot, scriptErrorWatch } from './helpers/console.ts';
import { createAccount, createContract, createPartner, createProduct, unique, userWithRoles, type TenantUser } from './helpers/factories.ts';

const ROLES = ['business-partner:read', 'product:read', 'contract:read'];

let browser: Browser;
let page: Page;
let account: { accountNo: string; crProcessId: number };
let clerk: TenantUser;
let colleague: TenantUser;
let partner: { partnerCode: string; partnerName: string; email: string };
const { errors: scriptErrors, watch } = scriptErrorWatch();

test.before(async () => {
  account = await createAccount();
  [clerk, colleague] = [await userWithRoles(account, ROLES), await userWithRoles(account, ROLES)];
  partner = await createPartner(account.crProcessId, { partnerName: unique('Kartal '), taxNumber: '123456789', email: `${unique('a')}@example.com` });
  await createPartner(account.crProcessId, { partnerName: unique('Zeta '), taxNumber: '987654321' });
  ({ browser, page } = await openConsole(watch, { viewport: { width: 1440, height: 900 } }));
});

test.after.always(async () => {
  await browser?.close();
});

/** The list's column headers, without the sort marks. */
async function headers(on: Page): Promise<string[]> {
  return (await on.locator('main table thead th').allTextContents()).map((text) => text.replace(/[▲▼↕]/g, '').trim());
}

/** Waits for a row of the list that holds `text`. */
async function row(on: Page, text: string): Promise<void> {
  await on.locator('main table tbody tr', { hasText: text }).first().waitFor();
}

test.serial('the partner list shows its declared columns; a chosen column survives a reload for its user only', async (t) => {
  await page.goto(consoleUrl('/business-partner'));
  await logIn(page, clerk.userCode, clerk.password);
  await page.getByRole('heading', { level: 1, name: 'Business partners' }).waitFor();
  await row(page, partner.partnerName);
  t.deepEqual(await headers(page), ['Partner code', 'Partner name', 'Partner type', 'Tax number', 'Status']);

  await page.getByText('Columns', { exact: true }).click();
  await page.getByRole('checkbox', { name: 'E-mail' }).check();
  await page.locator('main table thead th', { hasText: 'E-mail' }).waitFor();
  await row(page, partner.email);
  t.deepEqual(await headers(page), ['Partner code', 'Partner name', 'Partner type', 'Tax number', 'E-mail', 'Status']);
  t.deepEqual(await seriousViolations(page), [], 'the list with its column chooser open');
  await screenshot(page, 'list-columns');

  await page.reload();
  await row(page, partner.email);
  t.deepEqual(await headers(page), ['Partner code', 'Partner name', 'Partner type', 'Tax number', 'E-mail', 'Status']);

  // another user of the same browser sees the declared columns
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByLabel('User code').waitFor();
  await page.goto(consoleUrl('/business-partner'));
  await logIn(page, colleague.userCode, colleague.password);
  await row(page, partner.partnerName);
  t.deepEqual(await headers(page), ['Partner code', 'Partner name', 'Partner type', 'Tax number', 'Status']);
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByLabel('User code').waitFor();
});

test.serial('a tax number is found by its start; ids, versions and audit stamps wait behind "More filters"', async (t) => {
  await page.goto(consoleUrl('/business-partner'));
  await logIn(page, clerk.userCode, clerk.password);
  await row(page, partner.partnerName);
  await page.getByText('Filters', { exact: true }).click();
  t.false(await page.getByLabel('ID from').isVisible());
  t.false(await page.getByLabel('Version from').isVisible());
  t.false(await page.getByLabel('Created from').isVisible());
  await page.getByLabel('Tax number starts with').fill('12345');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByText('Page 1 of 1 (1 records)').waitFor();
  await row(page, partner.partnerName);
  t.is(await page.locator('main table tbody tr').count(), 1);

  await page.getByRole('button', { name: 'More filters' }).click();
  await page.getByLabel('ID from').waitFor();
  t.true(await page.getByLabel('Version from').isVisible());
  t.true(await page.getByLabel('Created from').isVisible());
  t.deepEqual(await seriousViolations(page), [], 'the list with its rarer filters open');
  await screenshot(page, 'list-more-filters');
});

test.serial('money is written in its currency in English and in Turkish', async (t) => {
  const product = await createProduct(account.crProcessId, { productName: unique('Priced '), unitPrice: '1500.00', currencyCode: 'TRY' });
  await page.goto(consoleUrl('/product'));
  await row(page, product.productName);
  const cell = page.locator('main table tbody tr', { hasText: product.productName });
  await cell.getByText('₺1,500.00', { exact: true }).waitFor();
  await page.getByLabel('Language').selectOption('tr');
  await cell.getByText('₺1.500,00', { exact: true }).waitFor();
  t.is(await cell.getByText('₺1,500.00', { exact: true }).count(), 0, 'the English figure is gone once the console speaks Turkish');
});

test.serial('in Turkish a date is shown and typed as 28.11.2026 and filters the list', async (t) => {
  const partnerId = (await createPartner(account.crProcessId)).id;
  const january = await createContract(account.crProcessId, { businessPartnerId: partnerId, contractNo: unique('JAN-'), startDate: '2026-01-15' });
  const march = await createContract(account.crProcessId, { businessPartnerId: partnerId, contractNo: unique('MAR-'), startDate: '2026-03-10' });
  await page.goto(
    consoleUrl(
      `/contract?${new URLSearchParams({ 'filters[0][field]': 'businessPartnerId', 'filters[0][operator]': 'eq', 'filters[0][value]': String(partnerId) })}`,
    ),
  );
  await row(page, january.contractNo);
  await row(page, march.contractNo);
  await page.locator('main table tbody tr', { hasText: march.contractNo }).getByText('10.03.2026', { exact: true }).waitFor();

  // the first date box of the declared filters is the start date's lower end
  const from = page.getByPlaceholder('gg.aa.yyyy').first();
  await from.fill('01.03.2026');
  await page.getByRole('button', { name: 'Uygula' }).click();
  await page.locator('main table tbody tr', { hasText: january.contractNo }).waitFor({ state: 'detached' });
  await row(page, march.contractNo);
  t.is(await page.locator('main table tbody tr').count(), 1);
  // the address keeps the day as the API takes it
  t.regex(decodeURIComponent(page.url()), /2026-03-01/);

  // a day that does not exist is refused in the box, not sent
  await from.fill('31.02.2026');
  t.false(await from.evaluate((box) => (box as unknown as { checkValidity(): boolean }).checkValidity()));
  await screenshot(page, 'list-date-tr');
  await page.getByLabel('Dil', { exact: true }).selectOption('en');
  await page.getByRole('button', { name: 'Log out' }).waitFor();
});

test.serial('no page met a script error or a refusal of its content security policy', (t) => {
  t.deepEqual(scriptErrors, []);
});
