/**
 * A list's export from the console, in a real Chromium (docs/interface.md#export,
 * docs/adr/0156-export-any-list.md): "Export" → CSV downloads the list as it is filtered and
 * sorted, with the rows it shows in the order it shows them, the headers in the console's language. The browser: helpers/chromium.ts, through helpers/console.ts.
 */
import { readFile } from 'node:fs/promises';
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { parse } from 'csv-parse/sync';
import { seriousViolations } from './helpers/axe.ts';
import { consoleUrl, logIn, openConsole, scriptErrorWatch } from './helpers/console.ts';
import { createAccount, createPartner, unique, userWithRoles, type TenantUser } from './helpers/factories.ts';

let browser: Browser;
let page: Page;
let clerk: TenantUser;
let editor: TenantUser;
const { errors: scriptErrors, watch } = scriptErrorWatch();
const tag = unique('Exp');

test.before(async () => {
  const account = await createAccount();
  clerk = await userWithRoles(account, ['business-partner:read']);
  editor = await userWithRoles(account, ['business-partner:read', 'business-partner:write']);
  for (const [n, partnerType] of ['SUPPLIER', 'CUSTOMER', 'SUPPLIER', 'SUPPLIER', 'BOTH', 'SUPPLIER'].entries()) {
    await createPartner(account.crProcessId, { partnerName: `${tag} ${'ABCDEF'[n]} Şişli`, partnerType });
  }
  await createPartner(account.crProcessId, { partnerName: '=HYPERLINK("http://evil.example")', partnerType: 'SUPPLIER' });
  ({ browser, page } = await openConsole(watch, { viewport: { width: 1440, height: 900 } }));
});

test.after.always(async () => {
  await browser?.close();
});

/** The partner names of the list's rows, in the order shown. */
async function shownNames(on: Page): Promise<string[]> {
  const header = (await on.locator('main table thead th').allTextContents()).map((text) => text.replace(/[▲▼↕]/g, '').trim());
  const at = header.findIndex((text) => text === 'Partner name' || text === 'Ortak adı');
  const rows = on.locator('main table tbody tr');
  const names: string[] = [];
  for (let i = 0; i < (await rows.count()); i++) names.push((await rows.nth(i).locator('td').nth(at).textContent())?.trim() ?? '');
  return names;
}

/** Clicks "Export" → `format` and returns the downloaded file's name and rows (CSV, its BOM taken off). */
async function exportCsv(on: Page, menu: string, item: string): Promise<{ name: string; rows: string[][]; bom: boolean }> {
  await on.getByText(menu, { exact: true }).click();
  const [download] = await Promise.all([on.waitForEvent('download'), on.getByRole('button', { name: item, exact: true }).click()]);
  const path = await download.path();
  const text = await readFile(path, 'utf8');
  return { name: download.suggestedFilename(), bom: text.startsWith('\uFEFF'), rows: parse(text.replace(/^\uFEFF/, '')) };
}

const query = new URLSearchParams({
  'filters[0][field]': 'partnerType',
  'filters[0][operator]': 'eq',
  'filters[0][value]': 'SUPPLIER',
  'sorters[0][field]': 'partnerName',
  'sorters[0][order]': 'desc',
});

test.serial('Export → CSV downloads the list as filtered and sorted: the rows shown, in their order', async (t) => {
  await page.goto(consoleUrl(`/business-partner?${query}`));
  await logIn(page, clerk.userCode, clerk.password);
  await page.locator('main table tbody tr', { hasText: `${tag} F` }).waitFor();
  const shown = await shownNames(page);
  t.deepEqual(shown, [`${tag} F Şişli`, `${tag} D Şişli`, `${tag} C Şişli`, `${tag} A Şişli`, '=HYPERLINK("http://evil.example")']);

  const { name, rows, bom } = await exportCsv(page, 'Export', 'CSV');
  t.regex(name, /^business-partner-\d{4}-\d{2}-\d{2}T\d{6}Z\.csv$/);
  t.true(bom);
  const header = rows[0] ?? [];
  const at = header.indexOf('Partner name');
  t.true(at >= 0, header.join(','));
  t.deepEqual(
    rows.slice(1).map((row) => row[at]),
    shown.map((text) => (text.startsWith('=') ? `'${text}` : text)),
  );
  t.deepEqual([...new Set(rows.slice(1).map((row) => row[header.indexOf('Partner type')]))], ['Supplier']);
  t.deepEqual(await seriousViolations(page), [], 'the list with its export menu open');
});

test.serial('in Turkish the file speaks Turkish', async (t) => {
  await page.getByLabel('Language').selectOption('tr');
  await page.getByText('Dışa aktar', { exact: true }).waitFor();
  const { rows } = await exportCsv(page, 'Dışa aktar', 'CSV');
  const header = rows[0] ?? [];
  t.true(header.includes('Ortak adı'), header.join(','));
  t.deepEqual([...new Set(rows.slice(1).map((row) => row[header.indexOf('Ortak türü')]))], ['Tedarikçi']);
  t.is(rows.length, 6);
  await page.getByLabel('Dil').selectOption('en');
});

test.serial('with rows selected, the export holds those rows only, in the order shown', async (t) => {
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByLabel('User code').waitFor();
  await page.goto(consoleUrl(`/business-partner?${query}`));
  await logIn(page, editor.userCode, editor.password);
  await page.locator('main table tbody tr', { hasText: `${tag} F` }).waitFor();
  await page.getByRole('checkbox', { name: `Select ${tag} C Şişli` }).check();
  await page.getByRole('checkbox', { name: `Select ${tag} F Şişli` }).check();
  const { rows } = await exportCsv(page, 'Export 2 selected', 'CSV');
  const at = (rows[0] ?? []).indexOf('Partner name');
  t.deepEqual(
    rows.slice(1).map((row) => row[at]),
    [`${tag} F Şişli`, `${tag} C Şişli`],
  );
});

test.serial('no script errors', (t) => {
  t.deepEqual(scriptErrors, []);
});
