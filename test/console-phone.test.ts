/**
 * The console on a phone (390×844) in a real Chromium: every main page fits the screen's width
 * (no sideways scroll of the page, nor of a box inside it), the menu is a disclosure behind a
 * button in the banner, list rows are cards that stay a table for screen readers, and axe finds no
 * serious or critical violation at that size. The same pages at a desktop's width are the other
 * console-*.test.ts files. Screenshots go to test-output/console/phone-*.png.
 */
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from './helpers/axe.ts';
import { consoleUrl, openConsole, screenshot, scriptErrorWatch } from './helpers/console.ts';
import { adminSession, createPartner } from './helpers/factories.ts';
import { uploadRecord } from './helpers/files.ts';
import { api, platform } from './helpers/platform.ts';

const PHONE = { width: 390, height: 844 };

let browser: Browser;
let page: Page;
let partner: { id: number; partnerName: string; partnerCode: string };
const { errors: scriptErrors, watch } = scriptErrorWatch();

test.before(async () => {
  const { token } = await adminSession();
  const crProcessId = Number((await api('GET', '/api/auth/me', { token })).body.crProcessId);
  partner = await createPartner(crProcessId);
  await uploadRecord(token, crProcessId, 'phone file', 'phone.txt');
  ({ browser, page } = await openConsole(watch, { viewport: PHONE, as: { userCode: platform.adminUser, password: platform.adminPassword } }));
});

test.after.always(async () => {
  await browser?.close();
});

/**
 * How the page is wider than the screen: the document's width beyond the window's, and every box
 * that scrolls sideways (overflow auto or scroll with more content than width), by tag and class.
 */
function sideways(on: Page): Promise<{ documentWidth: number; windowWidth: number; scrollingBoxes: string[] }> {
  return on.evaluate(`(() => ({
    documentWidth: document.documentElement.scrollWidth,
    windowWidth: window.innerWidth,
    scrollingBoxes: [...document.querySelectorAll('body *')]
      .filter((el) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.tagName.toLowerCase() + (el.className ? '.' + el.className : '')),
  }))()`);
}

/** The list's link to the partner's record page. */
const partnerLink = (on: Page) => on.locator(`a[href$="/business-partner/${partner.id}"]`);

const PAGES: { name: string; path: () => string; ready: (on: Page) => Promise<void> }[] = [
  {
    name: 'dashboard',
    path: () => '/dashboard',
    ready: async (on) => {
      await on.getByRole('heading', { level: 2, name: 'Document storage' }).waitFor();
      await on.getByRole('heading', { level: 2, name: 'Records' }).waitFor();
      await on
        .getByText(/ in \d+ files/)
        .first()
        .waitFor({ state: 'attached' });
    },
  },
  { name: 'list', path: () => '/business-partner', ready: (on) => partnerLink(on).waitFor() },
  { name: 'record', path: () => `/business-partner/${partner.id}`, ready: (on) => on.getByText(partner.partnerName).first().waitFor() },
  { name: 'create', path: () => '/business-partner/new', ready: (on) => on.getByRole('button', { name: 'Save' }).waitFor() },
  { name: 'documents', path: () => '/documents', ready: (on) => on.getByText('phone.txt').first().waitFor() },
  {
    name: 'sessions',
    path: () => '/operations/sessions',
    ready: (on) =>
      on
        .getByRole('button', { name: new RegExp(`^End session of ${platform.adminUser}`) })
        .first()
        .waitFor(),
  },
];

for (const { name, path, ready } of PAGES) {
  test.serial(`at 390×844 the ${name} page is no wider than the screen, and axe finds no serious violation`, async (t) => {
    await page.goto(consoleUrl(path()));
    await ready(page);
    await screenshot(page, `phone-${name}`);
    const found = await sideways(page);
    t.is(found.windowWidth, PHONE.width);
    t.true(found.documentWidth <= found.windowWidth, `the page is ${found.documentWidth} px wide in a ${found.windowWidth} px window`);
    t.deepEqual(found.scrollingBoxes, [], 'no box scrolls sideways');
    t.deepEqual(await seriousViolations(page), [], `the ${name} page`);
  });
}

test.serial('a list on a phone shows each row as a card of label and value, and stays a table with its headers for screen readers', async (t) => {
  await page.goto(consoleUrl('/business-partner'));
  const link = partnerLink(page);
  await link.waitFor();
  const row = page.getByRole('row').filter({ has: link });
  const card = await row.evaluate((tr) => ({ display: (globalThis as any).getComputedStyle(tr).display, width: tr.getBoundingClientRect().width }));
  t.is(card.display, 'block', 'the row is a card');
  t.true(card.width <= PHONE.width, `the card is ${card.width} px wide`);
  const cell = row.getByRole('cell').filter({ hasText: partner.partnerName });
  t.is(await cell.getAttribute('data-label'), 'Partner name');
  t.is(
    await cell.evaluate((td) => (globalThis as any).getComputedStyle(td, '::before').content),
    '"Partner name" / ""',
    'the card names the field, and leaves it out of what a screen reader reads',
  );
  t.true((await page.getByRole('columnheader').count()) > 3, 'the column headers are still there for screen readers');
});

test.serial('the menu is behind a button: it opens by the button, closes after choosing an entry and on Escape', async (t) => {
  await page.goto(consoleUrl('/dashboard'));
  const button = page.getByRole('button', { name: 'Menu' });
  const nav = page.getByRole('navigation', { name: 'Main' });
  await button.waitFor();
  t.is(await button.getAttribute('aria-expanded'), 'false');
  t.false(await nav.isVisible(), 'the menu is hidden until opened');

  await button.click();
  t.is(await button.getAttribute('aria-expanded'), 'true');
  t.true(await nav.isVisible());
  const panel = await button.getAttribute('aria-controls');
  t.is(await page.locator(`[id="${panel}"]`).getByRole('navigation', { name: 'Main' }).count(), 1, 'the button controls the menu');
  await screenshot(page, 'phone-menu');
  t.deepEqual(await seriousViolations(page), [], 'the open menu');
  await nav.getByRole('link', { name: 'Business partners' }).click();
  await page.getByRole('heading', { level: 1, name: 'Business partners' }).waitFor();
  t.is(await button.getAttribute('aria-expanded'), 'false', 'choosing an entry closes the menu');
  t.false(await nav.isVisible());

  await button.click();
  t.true(await nav.isVisible());
  await page.keyboard.press('Escape');
  t.is(await button.getAttribute('aria-expanded'), 'false', 'Escape closes the menu');
  t.false(await nav.isVisible());
  t.true(await button.evaluate((el) => el === (globalThis as any).document.activeElement), 'and gives the focus back to the button');
});

test.serial('at a desktop width the menu is beside the page with no button, and a list is a table', async (t) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(consoleUrl('/business-partner'));
  const link = partnerLink(page);
  await link.waitFor();
  t.true(await page.getByRole('navigation', { name: 'Main' }).isVisible());
  t.false(await page.getByRole('button', { name: 'Menu' }).isVisible());
  t.is(
    await page
      .getByRole('row')
      .filter({ has: link })
      .evaluate((tr) => (globalThis as any).getComputedStyle(tr).display),
    'table-row',
  );
  await page.setViewportSize(PHONE);
});

test.serial('no page met a script error or a CSP refusal', (t) => {
  t.deepEqual(scriptErrors, []);
});
