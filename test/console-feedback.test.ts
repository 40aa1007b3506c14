/**
 * What a clerk is told while working on a record, in a real Chromium (docs/adr/0122-feedback-after-create-save-and-delete.md,
 * docs/adr/0123-errors-in-a-clerk-s-words.md, docs/adr/0121-forms-in-declared-sections.md): the form in its
 * declared sections (side by side on a desktop, one column on a phone), a message after create,
 * save and delete in the polite status region, a delete confirmation whose focus starts on Cancel,
 * a question before leaving a changed form (none after a save), a skeleton while a record loads,
 * and a duplicate code said beside its field in words, not field names.
 */
import test from 'ava';
import type { Browser, Page, Route } from 'playwright-core';
import { seriousViolations } from './helpers/axe.ts';
import { consoleUrl, CRUD_ROLES, logIn, openConsole, screenshot, scriptErrorWatch } from './helpers/console.ts';
import { createAccount, createPartner, unique, userWithRoles, type TenantUser } from './helpers/factories.ts';
import { api } from './helpers/platform.ts';

let browser: Browser;
let page: Page;
let account: { accountNo: string; crProcessId: number };
let user: TenantUser;
const { errors: scriptErrors, watch } = scriptErrorWatch();

test.before(async () => {
  account = await createAccount();
  user = await userWithRoles(account, CRUD_ROLES);
  ({ browser, page } = await openConsole(watch, { viewport: { width: 1440, height: 900 }, logInAt: '/business-partner', as: user }));
});

test.after.always(async () => {
  await browser?.close();
});

/** The message region: the layout's polite live region. */
const messages = (on: Page) => on.locator('.toasts[role="status"][aria-live="polite"]');

/** The text of the element the focus is on. */
const focusedText = (on: Page): Promise<string> => on.evaluate('(document.activeElement && document.activeElement.textContent || "").trim()');

test.serial('a new partner is entered in its declared sections and its creation is said in the message region', async (t) => {
  const name = unique('Sectioned ');
  await page.goto(consoleUrl('/business-partner/new'));
  await page.getByRole('heading', { level: 1, name: 'New Business partner' }).waitFor();
  // the declared sections, in order, each a group named by its title
  const legends = await page.locator('form.record-form fieldset > legend').allTextContents();
  t.deepEqual(legends, ['Identity', 'Contact', 'Location']);
  await page.getByRole('group', { name: 'Contact' }).getByLabel('Phone').waitFor();
  // side by side on a desktop
  const code = await page.getByLabel('Partner code').boundingBox();
  const partnerName = await page.getByLabel('Partner name').boundingBox();
  t.true(code !== null && partnerName !== null && partnerName.x > code.x + code.width, 'two columns at 1440 px');
  t.deepEqual(await seriousViolations(page), [], 'the create form in sections');
  await screenshot(page, 'form-sections');

  await page.getByLabel('Partner code').fill(unique('S-'));
  await page.getByLabel('Partner name').fill(name);
  await page.getByLabel('Partner type').selectOption('CUSTOMER');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1, name: `Business partner ${name}` }).waitFor();
  await messages(page).getByText(`Business partner ${name} created.`).waitFor();
  // the record page shows the same sections, the record's stamps after them
  const headings = await page.locator('main section.record-section > h2').allTextContents();
  t.deepEqual(headings, ['Identity', 'Contact', 'Location', 'Record']);
});

test.serial('a save is said in the message region, and no question is asked on the way out of the saved form', async (t) => {
  const partner = await createPartner(account.crProcessId, { partnerName: unique('Saved ') });
  await page.goto(consoleUrl(`/business-partner/${partner.id}/edit`));
  await page.getByLabel('Phone').fill('+90 212 555 0101');
  await page.getByRole('button', { name: 'Save' }).click();
  // the save leaves for the record page on its own: a question would have held it on the form
  await page.getByRole('heading', { level: 1, name: `Business partner ${partner.partnerName}` }).waitFor();
  await messages(page).getByText(`Business partner ${partner.partnerName} saved.`).waitFor();
  t.is(await page.getByRole('dialog').count(), 0);
  t.is((await api('GET', `/api/business-partner/${partner.id}`, { token: user.token })).body.phone, '+90 212 555 0101');
});

test.serial('the delete confirmation starts on Cancel: Enter keeps the record; Delete removes it and says so', async (t) => {
  const partner = await createPartner(account.crProcessId, { partnerName: unique('Doomed ') });
  await page.goto(consoleUrl(`/business-partner/${partner.id}`));
  await page.getByRole('heading', { level: 1, name: `Business partner ${partner.partnerName}` }).waitFor();
  await page.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: /^Delete Business partner/ });
  await dialog.waitFor();
  t.is(await focusedText(page), 'Cancel');
  await page.keyboard.press('Enter');
  await dialog.waitFor({ state: 'hidden' });
  t.is((await api('GET', `/api/business-partner/${partner.id}`, { token: user.token })).status, 200);

  await page.getByRole('button', { name: 'Delete' }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('heading', { level: 1, name: 'Business partners' }).waitFor();
  await messages(page).getByText(`Business partner ${partner.partnerName} deleted.`).waitFor();
  t.is((await api('GET', `/api/business-partner/${partner.id}`, { token: user.token })).status, 404);
});

test.serial('leaving a changed form asks first, its default is to stay; leaving anyway drops the change', async (t) => {
  const partner = await createPartner(account.crProcessId, { partnerName: unique('Unsaved ') });
  await page.goto(consoleUrl(`/business-partner/${partner.id}/edit`));
  await page.getByLabel('Phone').fill('+90 555 000 0000');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Branches' }).click();
  const question = page.getByRole('dialog', { name: 'Leave without saving?' });
  await question.waitFor();
  t.is(await focusedText(page), 'Stay on the form');
  t.deepEqual(await seriousViolations(page), [], 'the leave question');
  await page.keyboard.press('Enter');
  await question.waitFor({ state: 'hidden' });
  t.regex(page.url(), new RegExp(`/business-partner/${partner.id}/edit$`));
  t.is(await page.getByLabel('Phone').inputValue(), '+90 555 000 0000');

  // closing the tab asks the browser's own question
  const asked = new Promise<string>((resolve) => page.once('dialog', (dialog) => void dialog.dismiss().then(() => resolve(dialog.type()))));
  await page.close({ runBeforeUnload: true });
  t.is(await asked, 'beforeunload');
  t.false(page.isClosed());

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Branches' }).click();
  await question.getByRole('button', { name: 'Leave without saving' }).click();
  await page.getByRole('heading', { level: 1, name: 'Branches' }).waitFor();
  t.is((await api('GET', `/api/business-partner/${partner.id}`, { token: user.token })).body.phone ?? null, null);
});

test.serial('an unchanged form is left without a question', async (t) => {
  const partner = await createPartner(account.crProcessId);
  await page.goto(consoleUrl(`/business-partner/${partner.id}/edit`));
  await page.getByLabel('Phone').waitFor();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Branches' }).click();
  await page.getByRole('heading', { level: 1, name: 'Branches' }).waitFor();
  t.is(await page.getByRole('dialog').count(), 0);
});

test.serial('a duplicate partner code is said beside the code, in words, and the code takes the focus', async (t) => {
  const taken = await createPartner(account.crProcessId);
  // the error body names the field at fault (docs/adr/0123-errors-in-a-clerk-s-words.md)
  const twin = await api('POST', '/api/business-partner', {
    token: user.token,
    body: { crProcessId: account.crProcessId, partnerCode: taken.partnerCode, partnerName: 'Twin', partnerType: 'CUSTOMER' },
  });
  t.like(twin.body, { status: 'ERROR', error_code: 'SVC-SYS-4005', field: 'partnerCode' });
  t.is(twin.status, 409);
  await page.goto(consoleUrl('/business-partner/new'));
  await page.getByLabel('Partner code').fill(taken.partnerCode);
  await page.getByLabel('Partner name').fill(unique('Twin '));
  await page.getByLabel('Partner type').selectOption('SUPPLIER');
  await page.getByRole('button', { name: 'Save' }).click();
  const code = page.getByLabel('Partner code');
  await page.locator('[aria-invalid="true"]').waitFor();
  t.is(await code.getAttribute('aria-invalid'), 'true');
  // the field's description: the refusal first, then the field's help
  const described = (await code.getAttribute('aria-describedby')) ?? '';
  const descriptions = (await page.evaluate(`${JSON.stringify(described)}.split(' ').map((id) => document.getElementById(id)?.textContent ?? '')`)) as string[];
  t.is(descriptions[0], 'Another business partner already has this partner code.');
  t.true(await code.evaluate((element) => element === element.ownerDocument.activeElement));
  const alert = (await page.getByRole('alert').textContent()) ?? '';
  t.regex(alert, /^Not saved: see Partner code\. \(SVC-SYS-4005\)$/);
  t.notRegex(alert + descriptions.join(' '), /partnerCode|same/);
  t.deepEqual(await seriousViolations(page), [], 'a form with a refused field');
  await screenshot(page, 'form-duplicate');

  // the same in Turkish
  await page.getByLabel('Language').selectOption('tr');
  await page.getByRole('button', { name: 'Kaydet' }).click();
  // "Bu <field> başka bir <kind> kaydında zaten var.": the words of the label catalogue in between
  await page.locator('.field-error').filter({ hasText: 'Bu ortak kodu başka bir iş ortağı kaydında zaten var.' }).waitFor();
  await page.getByLabel('Dil', { exact: true }).selectOption('en');
  // away by the menu, the typed values dropped on purpose
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Branches' }).click();
  await page.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Leave without saving' }).click();
  await page.getByRole('heading', { level: 1, name: 'Branches' }).waitFor();
});

test.serial('a reference to no record (400 SVC-SYS-2001 naming the field) is said beside that field', async (t) => {
  await page.goto(consoleUrl('/business-partner/new'));
  await page.getByLabel('Partner code').fill(unique('R-'));
  await page.getByLabel('Partner name').fill(unique('Nowhere '));
  await page.getByLabel('Partner type').selectOption('CUSTOMER');
  // this user may not read countries: the field is a plain number, and no country has this id
  await page.getByLabel('Country').fill('987654321');
  await page.getByRole('button', { name: 'Save' }).click();
  const country = page.getByLabel('Country');
  await page.locator('[aria-invalid="true"]').waitFor();
  t.is(await country.getAttribute('aria-invalid'), 'true');
  const errorId = ((await country.getAttribute('aria-describedby')) ?? '').split(' ')[0] ?? '';
  t.is(await page.locator(`[id="${errorId}"]`).textContent(), 'Choose a country that exists in this tenant.');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Branches' }).click();
  await page.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Leave without saving' }).click();
  await page.getByRole('heading', { level: 1, name: 'Branches' }).waitFor();
});

test.serial('a record page loading slowly shows a skeleton, busy for assistive technology, until the record comes', async (t) => {
  const partner = await createPartner(account.crProcessId, { partnerName: unique('Slow ') });
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  // the answer is the real server's: it is only held back until the skeleton has been seen
  const hold = async (route: Route) => {
    await held;
    await route.continue();
  };
  await page.route(`**/api/business-partner/${partner.id}`, hold);
  await page.goto(consoleUrl(`/business-partner/${partner.id}`));
  // the record's skeleton: once the record is in, its related lists show skeletons of their own rows
  const skeleton = page.locator('main .skeleton-record[aria-busy="true"][data-testid="skeleton"]');
  // the record page itself is there (its code loaded), its record not yet: the skeleton holds the place
  await page.getByRole('link', { name: 'Back to the list' }).waitFor();
  await skeleton.waitFor();
  t.is(await skeleton.count(), 1);
  t.is(await skeleton.first().getByRole('status').textContent(), 'Loading…');
  t.is(await page.getByRole('heading', { level: 2, name: 'Identity' }).count(), 0);
  await screenshot(page, 'record-skeleton');
  release();
  await page.getByRole('heading', { level: 2, name: 'Identity' }).waitFor();
  await page.locator('dd', { hasText: partner.partnerName }).waitFor();
  t.is(await skeleton.count(), 0);
  await page.unroute(`**/api/business-partner/${partner.id}`, hold);
});

test.serial('a list loading slowly shows a skeleton in its table, busy for assistive technology, until the rows come', async (t) => {
  // at least one row to come
  await createPartner(account.crProcessId, { partnerName: unique('Listed ') });
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  // the answer is the real server's: it is only held back until the skeleton has been seen
  const hold = async (route: Route) => {
    await held;
    await route.continue();
  };
  await page.route('**/api/business-partner/list', hold);
  await page.goto(consoleUrl('/business-partner'));
  const skeleton = page.locator('main table tbody [aria-busy="true"][data-testid="skeleton"]');
  await skeleton.waitFor();
  t.is(await skeleton.getByRole('status').textContent(), 'Loading…');
  t.is(await page.locator('main table tbody a[href]').count(), 0, 'no row before the answer');
  await screenshot(page, 'list-skeleton');
  release();
  await page.locator('main table tbody a[href]').first().waitFor();
  t.is(await skeleton.count(), 0);
  await page.unroute('**/api/business-partner/list', hold);
});

test.serial('on a phone the form is one column of sections, no wider than the screen', async (t) => {
  const phone = watch(await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage());
  await phone.goto(consoleUrl('/business-partner/new'));
  await logIn(phone, user.userCode, user.password);
  await phone.getByLabel('Partner code').waitFor();
  const code = await phone.getByLabel('Partner code').boundingBox();
  const partnerName = await phone.getByLabel('Partner name').boundingBox();
  t.true(code !== null && partnerName !== null && Math.abs(partnerName.x - code.x) < 1 && partnerName.y > code.y, 'one column at 390 px');
  t.true(Number(await phone.evaluate('document.documentElement.scrollWidth')) <= 390);
  t.deepEqual(await seriousViolations(phone), [], 'the form on a phone');
  await screenshot(phone, 'form-sections-phone');
  await phone.context().close();
});

test.serial('no page met a script error or a refusal of its content security policy', (t) => {
  t.deepEqual(scriptErrors, []);
});
