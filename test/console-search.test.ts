/**
 * The console's global search (docs/adr/0116-global-search-fans-out.md) in a real Chromium: a box in
 * the banner that lists GET /api/search's hits by kind as a combobox and its listbox, opened from
 * anywhere by Ctrl+K, Cmd+K or "/", walked with the arrow keys, Enter opening the chosen record's
 * page; in Turkish too, and on a phone (390×844) within the screen's width; axe finds no serious or
 * critical violation with the list open. Screenshots: test-output/console/search-*.png.
 */
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from './helpers/axe.ts';
import { launchChromium } from './helpers/chromium.ts';
import { consoleUrl, logIn, screenshot, scriptErrorWatch } from './helpers/console.ts';
import { createAccount, createPartner, createProduct, unique, userWithRoles, type TenantUser } from './helpers/factories.ts';

const ROLES = ['business-partner:read', 'product:read', 'contact:read', 'contract:read', 'dms-file:read'];
const PHONE = { width: 390, height: 844 };

let browser: Browser;
let user: TenantUser;
let word: string;
let first: { id: number; partnerName: string; partnerCode: string };
let second: { id: number; partnerName: string };
let product: { id: number; productName: string; productCode: string };
const { errors: scriptErrors, watch } = scriptErrorWatch();

test.before(async () => {
  const account = await createAccount();
  word = unique('Zefir');
  first = await createPartner(account.crProcessId, { partnerCode: `${word}-1`, partnerName: `${word} Anadolu` });
  second = await createPartner(account.crProcessId, { partnerCode: `${word}-2`, partnerName: `${word} Marmara` });
  product = await createProduct(account.crProcessId, { productName: `${word} vida` });
  user = await userWithRoles(account, ROLES);
  browser = await launchChromium();
});

test.after.always(async () => {
  await browser?.close();
});

/** A logged-in page of the user, at `viewport`, on the dashboard. */
async function loggedIn(viewport = { width: 1440, height: 900 }): Promise<Page> {
  const page = watch(await (await browser.newContext({ viewport })).newPage());
  await page.goto(consoleUrl('/login'));
  await logIn(page, user.userCode, user.password);
  return page;
}

const box = (page: Page, name = 'Search') => page.getByRole('combobox', { name, exact: true });

test.serial("typed in the banner's box, the partner is listed under its kind and Enter opens its page", async (t) => {
  const page = await loggedIn();
  await box(page).fill(word.toLowerCase());
  const listbox = page.getByRole('listbox', { name: 'Search results' });
  const partners = listbox.getByRole('group', { name: 'Business partners' });
  await partners.getByRole('option', { name: new RegExp(first.partnerName) }).waitFor();
  t.deepEqual(await partners.getByRole('option').allTextContents(), [`${first.partnerName}${first.partnerCode}`, `${second.partnerName}${word}-2`]);
  t.deepEqual(await listbox.getByRole('group', { name: 'Products' }).getByRole('option').allTextContents(), [`${product.productName}${product.productCode}`]);
  t.is(await box(page).getAttribute('aria-expanded'), 'true');
  t.deepEqual(await seriousViolations(page), [], 'axe with the list open');
  await screenshot(page, 'search-desktop');

  await box(page).press('Enter');
  await page.waitForURL(`**/console/business-partner/${first.id}`);
  await page.getByRole('heading', { level: 1, name: `Business partner ${first.partnerName}` }).waitFor();
  t.is(await box(page).inputValue(), '', 'the box is empty again');
  await page.close();
});

test.serial('the arrow keys choose a hit, Enter opens the chosen one, Escape closes the list', async (t) => {
  const page = await loggedIn();
  await box(page).fill(`${word}-`);
  const options = page.getByRole('option');
  await options.nth(1).waitFor();
  await box(page).press('ArrowDown');
  await box(page).press('ArrowDown');
  const chosen = await box(page).getAttribute('aria-activedescendant');
  t.truthy(chosen);
  t.is(await page.locator(`[id="${chosen}"]`).getAttribute('aria-selected'), 'true');
  t.regex((await page.locator(`[id="${chosen}"]`).textContent()) ?? '', new RegExp(second.partnerName));
  await box(page).press('Escape');
  t.is(await box(page).getAttribute('aria-expanded'), 'false');
  await box(page).press('ArrowDown');
  await box(page).press('ArrowDown');
  await box(page).press('Enter');
  await page.waitForURL(`**/console/business-partner/${second.id}`);
  await page.close();
});

test.serial('Ctrl+K, Cmd+K and "/" bring the focus to the box from anywhere on the page', async (t) => {
  const page = await loggedIn();
  const focused = async () => (await box(page).getAttribute('id')) === (await page.evaluate('document.activeElement?.id'));
  for (const keys of ['Control+k', 'Meta+k', '/']) {
    await page.locator('main').click({ position: { x: 5, y: 5 } });
    t.false(await focused(), `${keys}: not focused before`);
    await page.keyboard.press(keys);
    t.true(await focused(), `${keys} focuses the search`);
  }
  // a "/" typed into the box is a character of the term, not the shortcut
  await page.keyboard.type('a/b');
  t.is(await box(page).inputValue(), 'a/b');
  await page.close();
});

test.serial('in Turkish the box, its kinds and its messages are Turkish', async (t) => {
  const page = await loggedIn();
  await page.getByLabel('Language').selectOption('tr');
  await box(page, 'Ara').fill(word);
  await page.getByRole('listbox', { name: 'Arama sonuçları' }).getByRole('group', { name: 'İş ortakları' }).getByRole('option').first().waitFor();
  t.is(await page.getByRole('group', { name: 'Ürünler' }).getByRole('option').count(), 1);
  await screenshot(page, 'search-turkish');
  await box(page, 'Ara').fill(unique('yok'));
  await page.locator('.global-search-note', { hasText: 'için bir şey bulunamadı' }).waitFor();
  t.regex((await page.getByRole('status').filter({ hasText: 'bulunamadı' }).textContent()) ?? '', /bulunamadı/, 'said to a screen reader');
  t.is(await box(page, 'Ara').getAttribute('aria-expanded'), 'false');
  await page.close();
});

test.serial('on a phone the box and its list stay within the screen, and axe finds nothing serious', async (t) => {
  const page = await loggedIn(PHONE);
  await box(page).fill(word);
  await page.getByRole('option', { name: new RegExp(first.partnerName) }).waitFor();
  const widths = (await page.evaluate(`(() => {
    const panel = document.querySelector('.global-search-panel').getBoundingClientRect();
    return { document: document.documentElement.scrollWidth, window: window.innerWidth, left: panel.left, right: panel.right };
  })()`)) as { document: number; window: number; left: number; right: number };
  t.true(widths.document <= widths.window, `document ${widths.document} px in a ${widths.window} px window`);
  t.true(widths.left >= 0 && widths.right <= widths.window, `the list spans ${widths.left}..${widths.right} px`);
  t.deepEqual(await seriousViolations(page), []);
  await screenshot(page, 'search-phone');
  await page.getByRole('option', { name: new RegExp(first.partnerName) }).click();
  await page.waitForURL(`**/console/business-partner/${first.id}`);
  await page.close();
});

test.serial('no page script failed or was refused', (t) => {
  t.deepEqual(scriptErrors, []);
});
