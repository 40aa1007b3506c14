/**
 * The console's menu (docs/adr/0115-the-console-menu-by-declared-areas.md): areas and entries named
 * for people in English and Turkish as each resource and extension page declares them, one entry
 * per page, create never an entry, and the dashboard as the page after login. In a real Chromium as
 * a super user, who is offered every entry.
 */
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { CONSOLE_AREAS } from '@platform/kit/resource/resource.ts';
import { consoleManifest } from '../gateway/src/console/manifest.ts';
import { registry } from '../gateway/src/registry.ts';
import { consoleUrl, openConsole, scriptErrorWatch } from './helpers/console.ts';
import { platform } from './helpers/platform.ts';

let browser: Browser;
let page: Page;
const { errors: scriptErrors, watch } = scriptErrorWatch();

test.before(async () => {
  ({ browser, page } = await openConsole(watch, { logInAt: '/', as: { userCode: platform.adminUser, password: platform.adminPassword } }));
});

test.after.always(async () => {
  await browser?.close();
});

/** The menu as shown: each area's heading and its entries' names and addresses. */
async function menu(name: string): Promise<{ areas: string[]; entries: { label: string; href: string }[] }> {
  const nav = page.getByRole('navigation', { name });
  await nav.getByRole('link').first().waitFor();
  return {
    areas: await nav.getByRole('heading', { level: 2 }).allTextContents(),
    entries: await nav
      .getByRole('link')
      .evaluateAll((links) => links.map((link) => ({ label: link.textContent ?? '', href: link.getAttribute('href') ?? '' }))),
  };
}

test('every resource declares its menu entry, in an area and named in English and in Turkish', (t) => {
  // the entry reads as the resource's plural label (test/labels-catalogue.test.ts)
  for (const resource of consoleManifest(registry, {}).resources) {
    if (resource.menu === null) continue;
    const { area, label } = resource.menu;
    t.true(CONSOLE_AREAS.includes(area), `${resource.path}: area ${area}`);
    t.regex(label.en, /\S/, `${resource.path}: an English label`);
    t.regex(label.tr, /\S/, `${resource.path}: a Turkish label`);
    t.not(label.tr, label.en, `${resource.path}: the Turkish label is Turkish`);
  }
  const entries = consoleManifest(registry, {}).resources.flatMap((resource) => (resource.menu ? [resource.menu.label] : []));
  t.is(new Set(entries.map((label) => label.en)).size, entries.length, 'no two English labels alike');
  t.is(new Set(entries.map((label) => label.tr)).size, entries.length, 'no two Turkish labels alike');
});

test.serial('after login the dashboard is shown, under a menu of named areas with one entry per page and none to create', async (t) => {
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
  t.is(new URL(page.url()).pathname, '/console/dashboard');
  const { areas, entries } = await menu('Main');
  t.deepEqual(areas, ['Overview', 'Partners', 'Contracts', 'Documents', 'Administration', 'Operations']);
  const labels = entries.map((entry) => entry.label);
  for (const label of [
    'Dashboard',
    'Business partners',
    'Branches',
    'Contacts',
    'Products',
    'Contracts',
    'Accruals',
    'Documents',
    'Audit log',
    'Users',
    'Roles',
    'Licences',
    'Webhooks',
    'Exception log',
  ]) {
    t.true(labels.includes(label), `${label} in ${labels.join(', ')}`);
  }
  for (const table of ['User infos', 'Dms files', 'Dms audit logs', 'License histories', 'Dms account configs']) t.false(labels.includes(table), table);
  t.deepEqual(
    labels.filter((label) => /^New /.test(label)),
    [],
  );
  t.is(new Set(labels).size, labels.length, labels.join(', '));
  t.is(new Set(entries.map((entry) => entry.href)).size, entries.length);
  // each entry opens a page named as the entry: the same page under two addresses (a resource's list
  // replaced by an extension's page) would bear one name under two entries
  const headings: string[] = [];
  for (const { href } of entries) {
    await page.goto(`${platform.url}${href}`);
    headings.push((await page.getByRole('heading', { level: 1 }).first().textContent({ timeout: 15_000 })) ?? '');
  }
  t.deepEqual(headings, labels);
});

test.serial("creating a webhook subscription is the list's button, which opens the page that shows its secret once", async (t) => {
  await page.goto(consoleUrl('/webhook-subscription'));
  await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
  await page.getByRole('link', { name: /^Create/ }).click();
  await page.getByRole('heading', { level: 1, name: 'New webhook' }).waitFor();
  t.is(new URL(page.url()).pathname, '/console/webhook-subscription/new');
});

test.serial('in Turkish the menu shows the Turkish names of the same entries', async (t) => {
  await page.goto(consoleUrl('/'));
  const english = await menu('Main');
  await page.getByLabel('Language').selectOption('tr');
  await page.getByRole('heading', { level: 1, name: 'Gösterge paneli' }).waitFor();
  const turkish = await menu('Ana menü');
  t.deepEqual(turkish.areas, ['Genel bakış', 'İş ortakları', 'Sözleşmeler', 'Belgeler', 'Yönetim', 'Operasyon']);
  t.deepEqual(
    turkish.entries.map((entry) => entry.href),
    english.entries.map((entry) => entry.href),
  );
  turkish.entries.forEach((entry, index) => {
    t.regex(entry.label, /\S/, entry.href);
    t.not(entry.label, english.entries[index]?.label, `${entry.href}: ${entry.label}`);
    t.false(entry.label.startsWith('Yeni '), entry.label);
  });
  const labels = turkish.entries.map((entry) => entry.label);
  for (const label of [
    'İş ortakları',
    'Şubeler',
    'İlgili kişiler',
    'Ürünler',
    'Sözleşmeler',
    'Tahakkuklar',
    'Belgeler',
    'Kullanıcılar',
    'Hesaplar',
    'Gruplar',
    'Roller',
    'Lisanslar',
  ]) {
    t.true(labels.includes(label), `${label} in ${labels.join(', ')}`);
  }
  await page.getByLabel('Dil', { exact: true }).selectOption('en');
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
});

test.serial('no page met a script error or a refusal of its content security policy', (t) => {
  t.deepEqual(scriptErrors, []);
});
