/**
 * A list's selection and its bulk actions in a real Chromium (docs/adr/0155-bulk-changes-item-by-item.md:
 * "a checkbox per row and one for the page; with rows selected an action bar says how many and
 * offers Delete (confirmed first), Set active and Set passive ... then a summary of what passed and
 * each failed row's message, and the list reloads. It offers only what the live roles allow").
 * Every wait requires the rows themselves; every outcome is read back over the API.
 */
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from './helpers/axe.ts';
import { consoleUrl, logIn, openConsole, screenshot, scriptErrorWatch } from './helpers/console.ts';
import { adminSession, createAccount, createBranch, createPartner, unique, userWithRoles, type TenantUser } from './helpers/factories.ts';
import { api } from './helpers/platform.ts';

let browser: Browser;
let page: Page;
let account: { accountNo: string; crProcessId: number };
let clerk: TenantUser;
let reader: TenantUser;
const { errors: scriptErrors, watch } = scriptErrorWatch();

test.before(async () => {
  account = await createAccount();
  clerk = await userWithRoles(account, ['business-partner:read', 'business-partner:write', 'business-partner:delete']);
  reader = await userWithRoles(account, ['business-partner:read']);
  ({ browser, page } = await openConsole(watch, { viewport: { width: 1440, height: 900 } }));
});

test.after.always(async () => {
  await browser?.close();
});

/** The partners list narrowed by a search to those whose name holds `prefix`, once its `count` rows are there. */
async function listOf(on: Page, prefix: string, count: number): Promise<void> {
  await on.getByRole('searchbox', { name: 'Search' }).fill(prefix);
  await on.getByRole('searchbox', { name: 'Search' }).press('Enter');
  await on.getByText(`Page 1 of 1 (${count} records)`).waitFor();
}

async function partner(id: number, token: string): Promise<{ status: number; body: any }> {
  return api('GET', `/api/business-partner/${id}`, { token });
}

test.serial('rows selected by the keyboard and the mouse are set passive in one go, and the list shows it', async (t) => {
  const prefix = unique('Toplu ');
  const [a, b, c] = await Promise.all(['A', 'B', 'C'].map((suffix) => createPartner(account.crProcessId, { partnerName: `${prefix} ${suffix}` })));
  await page.goto(consoleUrl('/business-partner'));
  await logIn(page, clerk.userCode, clerk.password);
  await page.getByRole('heading', { level: 1, name: 'Business partners' }).waitFor();
  await listOf(page, prefix, 3);
  t.is(await page.getByRole('region', { name: 'Actions on the selected rows' }).count(), 0, 'no bar without a selection');

  // the keyboard: a row's checkbox is reached and ticked like any other
  const boxA = page.getByRole('checkbox', { name: `Select ${a.partnerName}` });
  await boxA.focus();
  await page.keyboard.press('Space');
  t.true(await boxA.isChecked());
  await page.getByRole('checkbox', { name: `Select ${b.partnerName}` }).check();
  const bar = page.getByRole('region', { name: 'Actions on the selected rows' });
  await bar.getByText('2 selected').waitFor();
  t.deepEqual(await bar.getByRole('button').allTextContents(), ['Delete', 'Set active', 'Set passive', 'Clear selection']);
  t.deepEqual(await seriousViolations(page), [], 'the list with two rows selected');
  await screenshot(page, 'list-selection');

  await bar.getByRole('button', { name: 'Set passive' }).click();
  await page.getByText('Set passive: 2 of 2 done.').waitFor();
  // the statistics of the tenant follow
  await page
    .locator('dl.stats-strip > div')
    .filter({ hasText: /^Passive\s*2$/ })
    .waitFor();
  t.is((await partner(a.id, clerk.token)).body.status, false);
  t.is((await partner(b.id, clerk.token)).body.status, false);
  t.is((await partner(c.id, clerk.token)).body.status, true);
  // the list reloaded: the rows say Passive, the selection is gone with its bar
  await page.locator('main table tbody tr', { hasText: a.partnerName }).getByText('Passive').waitFor();
  await page.locator('main table tbody tr', { hasText: b.partnerName }).getByText('Passive').waitFor();
  t.is(await bar.count(), 0);
  // the keyboard goes on from the page's checkbox, not from the top of the page
  t.is(await page.evaluate('document.activeElement.getAttribute("aria-label")'), 'Select all on this page');
  t.false(await page.getByRole('checkbox', { name: `Select ${a.partnerName}` }).isChecked());

  // and back to active, the page's box selecting all three
  await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
  await bar.getByText('3 selected').waitFor();
  await bar.getByRole('button', { name: 'Set active' }).click();
  await page.getByText('Set active: 3 of 3 done.').waitFor();
  for (const each of [a, b, c]) t.like((await partner(each.id, clerk.token)).body, { status: true, version: each.id === c.id ? 1 : 2 });
  t.deepEqual(scriptErrors, []);
});

test.serial('a delete of the selection is confirmed first; a row still referenced stays, with its reason, the others go', async (t) => {
  const prefix = unique('Silinecek ');
  const [kept, gone1, gone2] = await Promise.all(['A', 'B', 'C'].map((suffix) => createPartner(account.crProcessId, { partnerName: `${prefix} ${suffix}` })));
  await createBranch(account.crProcessId, kept.id);
  await page.goto(consoleUrl('/business-partner'));
  await page.getByRole('heading', { level: 1, name: 'Business partners' }).waitFor();
  await listOf(page, prefix, 3);
  await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
  const bar = page.getByRole('region', { name: 'Actions on the selected rows' });
  await bar.getByText('3 selected').waitFor();

  // the dialog's focus starts on Cancel: Enter does not delete
  await bar.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete 3 selected records?' });
  await dialog.waitFor();
  t.deepEqual(await seriousViolations(page), [], 'the confirmation');
  t.is(await page.evaluate('document.activeElement.textContent'), 'Cancel');
  await page.keyboard.press('Enter');
  await dialog.waitFor({ state: 'hidden' });
  t.is((await partner(gone1.id, clerk.token)).status, 200, 'Cancel deleted nothing');

  await bar.getByRole('button', { name: 'Delete' }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await page.getByText('Delete: 2 of 3 done.').waitFor();
  const failures = page.getByRole('alert').filter({ hasText: 'Delete: 1 of 3 not done' });
  await failures.waitFor();
  t.regex(await failures.innerText(), new RegExp(`${kept.partnerName}: This business partner cannot be deleted while other records refer to it`));
  // the focus goes to what was not done, so a screen reader reads it and the keyboard is there
  t.is(await page.evaluate('document.activeElement.getAttribute("role")'), 'alert');
  await screenshot(page, 'list-bulk-failures');
  t.is((await partner(kept.id, clerk.token)).status, 200);
  t.is((await partner(gone1.id, clerk.token)).status, 404);
  t.is((await partner(gone2.id, clerk.token)).status, 404);
  // the list reloaded: the one left
  await page.getByText('Page 1 of 1 (1 records)').waitFor();
  t.is(await page.locator('main table tbody tr', { hasText: kept.partnerName }).count(), 1);
  await failures.getByRole('button', { name: 'Close' }).click();
  await failures.waitFor({ state: 'hidden' });
  t.deepEqual(scriptErrors, []);
});

test.serial('in Turkish the selection speaks Turkish', async (t) => {
  const prefix = unique('Türkçe ');
  const one = await createPartner(account.crProcessId, { partnerName: `${prefix} A` });
  await page.goto(consoleUrl('/business-partner'));
  await page.getByLabel('Language').selectOption('tr');
  await page.getByRole('heading', { level: 1, name: 'İş ortakları' }).waitFor();
  await page.getByRole('searchbox', { name: 'Ara' }).fill(prefix);
  await page.getByRole('searchbox', { name: 'Ara' }).press('Enter');
  await page.locator('main table tbody tr', { hasText: one.partnerName }).waitFor();
  await page.getByRole('checkbox', { name: `${one.partnerName} seç` }).check();
  const bar = page.getByRole('region', { name: 'Seçili satırlar için işlemler' });
  await bar.getByText('1 seçili').waitFor();
  t.deepEqual(await bar.getByRole('button').allTextContents(), ['Sil', 'Aktif yap', 'Pasif yap', 'Seçimi temizle']);
  await bar.getByRole('button', { name: 'Seçimi temizle' }).click();
  await bar.waitFor({ state: 'hidden' });
  await page.getByLabel('Dil').selectOption('en');
  await page.getByRole('heading', { level: 1, name: 'Business partners' }).waitFor();
  t.deepEqual(scriptErrors, []);
});

test.serial('a user who may only read has no checkboxes and no bar', async (t) => {
  const one = await createPartner(account.crProcessId, { partnerName: unique('Okunur ') });
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByLabel('User code').waitFor();
  await page.goto(consoleUrl('/business-partner'));
  await logIn(page, reader.userCode, reader.password);
  await listOf(page, one.partnerName, 1);
  t.is(await page.getByRole('checkbox', { name: 'Select all on this page' }).count(), 0);
  t.is(await page.getByRole('checkbox', { name: `Select ${one.partnerName}` }).count(), 0);
  t.deepEqual(scriptErrors, []);
});

test.serial('a role taken away while the list is open: the rows are refused with the reason, and Delete is no longer offered', async (t) => {
  const { token: admin } = await adminSession();
  const user = await userWithRoles(account, ['business-partner:read', 'business-partner:write', 'business-partner:delete']);
  const one = await createPartner(account.crProcessId, { partnerName: unique('Yetki ') });
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByLabel('User code').waitFor();
  await page.goto(consoleUrl('/business-partner'));
  await logIn(page, user.userCode, user.password);
  await listOf(page, one.partnerName, 1);
  await page.getByRole('checkbox', { name: `Select ${one.partnerName}` }).check();
  const bar = page.getByRole('region', { name: 'Actions on the selected rows' });
  await bar.getByRole('button', { name: 'Delete' }).waitFor();

  const deleteRole = await api('POST', '/api/role-type/list', {
    token: admin,
    body: { filter: { crProcessId: account.crProcessId, roleCode: 'business-partner:delete' } },
  });
  const grants = await api('POST', '/api/group-role/list', { token: admin, body: { filter: { crProcessId: account.crProcessId, groupId: user.group.id } } });
  const grant = grants.body.content.find((each: any) => each.roleTypeId === deleteRole.body.content[0]?.id);
  t.is((await api('DELETE', `/api/group-role/${grant.id}`, { token: admin })).status, 204);

  await bar.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('alert')
    .filter({ hasText: `${one.partnerName}: Your roles do not allow this.` })
    .waitFor();
  t.is((await partner(one.id, admin)).status, 200);
  // the roles read again: the row can still be selected (write remains), but Delete is gone
  await page.getByRole('checkbox', { name: `Select ${one.partnerName}` }).check();
  await bar.getByText('1 selected').waitFor();
  await bar.getByRole('button', { name: 'Set passive' }).waitFor();
  t.is(await bar.getByRole('button', { name: 'Delete' }).count(), 0);
  t.deepEqual(scriptErrors, []);
});
