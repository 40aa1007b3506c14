/**
 * The console's import page in Chromium (docs/interface.md#import): a user who may write business
 * partners uploads a CSV with Turkish headers, finds its columns mapped, changes one, runs the dry
 * run and sees each row's errors with the error report's link, then imports, the progress bar full;
 * axe finds no serious violation on the page.
 */
import test from 'ava';
import type { Browser } from 'playwright-core';
import { seriousViolations } from './helpers/axe.ts';
import { consoleUrl, openConsole, screenshot, scriptErrorWatch } from './helpers/console.ts';
import { createAccount, unique, userWithRoles } from './helpers/factories.ts';
import { api } from './helpers/platform.ts';

const { errors, watch } = scriptErrorWatch();
const browsers: Browser[] = [];

test.after.always(async () => {
  await Promise.all(browsers.map((browser) => browser.close()));
});

test.serial('upload, mapping, dry run with its errors and report, then the import with its progress', async (t) => {
  const account = await createAccount();
  const user = await userWithRoles(account, ['business-partner:read', 'business-partner:write']);
  const { browser, page } = await openConsole(watch, { as: { userCode: user.userCode, password: user.password } });
  browsers.push(browser);
  const code = unique('P-');
  const csv = `Ortak kodu;Ortak adı;Ortak türü;Not\n${code};Birinci;Müşteri;x\n${code};İkinci;Müşteri;y\n`;

  await page.goto(consoleUrl('/import'));
  await page.getByRole('heading', { name: 'Import' }).waitFor();
  await page.getByLabel('Into').selectOption('business-partner');
  await page.getByLabel('File').setInputFiles({ name: 'ortaklar.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Upload' }).click();
  await page.getByText('Status: PREVIEW').waitFor();
  t.is(await page.getByLabel('Field: Ortak kodu').inputValue(), 'partnerCode');
  t.is(await page.getByLabel('Field: Ortak türü').inputValue(), 'partnerType');
  t.is(await page.getByLabel('Field: Not').inputValue(), '');
  // the note would go into the tax number: changed, and sent with the dry run
  await page.getByLabel('Field: Not').selectOption('taxNumber');

  await page.getByRole('button', { name: 'Check (dry run)' }).click();
  await page.getByText('Status: CHECKED').waitFor({ timeout: 60_000 });
  const errorRow = page.getByRole('table', { name: 'Errors' }).getByRole('row').filter({ hasText: 'the same value as row 2' });
  await errorRow.waitFor();
  t.regex(await errorRow.innerText(), /^3\s+Ortak kodu/);
  t.truthy(await page.getByRole('link', { name: 'Download the error report (CSV)' }).getAttribute('href'));
  await screenshot(page, 'import-checked');
  t.deepEqual(await seriousViolations(page), []);

  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await page.getByText('Status: DONE').waitFor({ timeout: 60_000 });
  t.is(await page.getByLabel('Progress').getAttribute('value'), '2');
  const list = await api('POST', '/api/business-partner/list', { token: user.token, body: { page: 0, size: 5, filter: { crProcessId: account.crProcessId } } });
  t.like(list.body.content, [{ partnerCode: code, partnerName: 'Birinci', taxNumber: 'x' }]);
  t.deepEqual(errors, []);
});
