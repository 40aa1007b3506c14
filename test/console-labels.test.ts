/**
 * The console in Turkish, in a real Chromium (docs/adr/0117-labels-catalogue-beside-the-declaration.md):
 * the partners' list reads its headers and partner types from the catalogue, never a field name or
 * a raw capital; a partner's history names each changed field by its label, shows its values as
 * people read them (enum labels, Aktif/Pasif, a reference by its record's name as a link, a Turkish
 * date) and leaves the bookkeeping fields out. The contract: "Entity names, field labels, enum
 * values and help texts in both languages from one catalogue"; "History and audit for people: field
 * labels, formatted values, names instead of ids, no internal fields". Screenshots go to
 * test-output/console/.
 */
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from './helpers/axe.ts';
import { consoleUrl, logIn, openConsole, screenshot, scriptErrorWatch } from './helpers/console.ts';
import { adminSession, create, createAccount, createPartner, unique, userWithRoles, type TenantUser } from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';

const ROLES = ['business-partner:read', 'business-partner:write', 'country:read'];

let browser: Browser;
let page: Page;
let account: { accountNo: string; crProcessId: number };
let user: TenantUser;
const { errors: scriptErrors, watch } = scriptErrorWatch();

test.before(async () => {
  account = await createAccount();
  user = await userWithRoles(account, ROLES);
  ({ browser, page } = await openConsole(watch));
});

test.after.always(async () => {
  await browser?.close();
});

test.serial('in Turkish the partners list has Turkish headers and partner types', async (t) => {
  const prefix = unique('Etiket ');
  await createPartner(account.crProcessId, { partnerName: `${prefix} A`, partnerType: 'CUSTOMER' });
  await createPartner(account.crProcessId, { partnerName: `${prefix} B`, partnerType: 'SUPPLIER' });
  await createPartner(account.crProcessId, { partnerName: `${prefix} C`, partnerType: 'BOTH' });
  // a fresh tenant: its partners are these three
  await page.goto(consoleUrl('/business-partner'));
  await logIn(page, user.userCode, user.password);
  await page.getByLabel('Language').selectOption('tr');
  await page.getByRole('heading', { level: 1, name: 'İş ortakları' }).waitFor();
  const table = page.getByRole('table');
  // the rows themselves, not an empty list: the three partners by name
  for (const suffix of ['A', 'B', 'C']) await table.getByRole('cell', { name: `${prefix} ${suffix}`, exact: true }).waitFor();
  const headers = (await table.getByRole('columnheader').allTextContents()).map((text) => text.trim());
  for (const header of ['Ortak kodu', 'Ortak adı', 'Ortak türü'])
    t.true(
      headers.some((text) => text.startsWith(header)),
      `${header} in ${headers.join(', ')}`,
    );
  for (const english of ['Partner code', 'Partner name', 'Partner type', 'partnerType'])
    t.false(
      headers.some((text) => text.startsWith(english)),
      english,
    );
  for (const type of ['Müşteri', 'Tedarikçi', 'Her ikisi']) t.is(await table.getByRole('cell', { name: type, exact: true }).count(), 1, type);
  const text = (await table.textContent()) ?? '';
  for (const raw of ['CUSTOMER', 'SUPPLIER', 'BOTH']) t.false(text.includes(raw), `no raw ${raw}`);
  t.deepEqual(await seriousViolations(page), [], 'the list in Turkish');
  await screenshot(page, 'labels-partners-tr');
});

test.serial("in Turkish a partner's history names the fields by their labels, with values as people read them", async (t) => {
  const country = await create('country', { crProcessId: account.crProcessId, code: 'TR', name: unique('Türkiye ') });
  const partner = await createPartner(account.crProcessId, { partnerName: unique('Geçmiş '), partnerType: 'CUSTOMER' });
  const updated = await api('PUT', `/api/business-partner/${partner.id}`, {
    token: user.token,
    body: { version: partner.version, partnerType: 'SUPPLIER', status: false, countryId: country.id },
  });
  t.is(updated.status, 200, JSON.stringify(updated.body));

  await page.goto(consoleUrl(`/business-partner/${partner.id}`));
  await page.getByRole('heading', { level: 1, name: `İş ortağı ${partner.partnerName}` }).waitFor();
  const history = page.getByRole('region', { name: 'Geçmiş' });
  const update = history.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Güncellendi', exact: true }) });
  await update.waitFor();
  const changes = (await update.getByRole('listitem').allTextContents()).map((line) => line.replace(/\s+/g, ' ').trim());
  t.true(changes.includes('Ortak türü: Müşteri → Tedarikçi'), changes.join(' | '));
  t.true(changes.includes('Durum: Aktif → Pasif'), changes.join(' | '));
  t.true(
    changes.some((line) => line.startsWith(`Ülke: — → ${country.name}`)),
    changes.join(' | '),
  );
  // the reference is a link to the country's page, by its name
  t.is(await update.getByRole('link', { name: country.name }).getAttribute('href'), `/console/country/${country.id}`);
  // no bookkeeping fields, no field names
  for (const internal of ['Sürüm', 'Güncellenme', 'Güncelleyen', 'version', 'updatedAt', 'partnerType']) {
    t.false(
      changes.some((line) => line.startsWith(`${internal}:`)),
      internal,
    );
  }
  // the creation names its fields the same way, without the id, the tenant or the stamps
  const created = history.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Oluşturuldu', exact: true }) });
  const createdLines = (await created.getByRole('listitem').allTextContents()).map((line) => line.replace(/\s+/g, ' ').trim());
  t.true(createdLines.includes(`Ortak adı: ${partner.partnerName}`), createdLines.join(' | '));
  for (const internal of ['Kimlik', 'Kiracı', 'Oluşturulma', 'Oluşturan'])
    t.false(
      createdLines.some((line) => line.startsWith(`${internal}:`)),
      internal,
    );
  // when: in Turkish, not an ISO time
  const when = (await update.locator('time').first().textContent()) ?? '';
  t.regex(when, /^\d{1,2}[. ]/, `day first: ${when}`);
  t.notRegex(when, /\d{4}-\d{2}-\d{2}T|Z$/, `not ISO: ${when}`);
  t.deepEqual(await seriousViolations(page), [], 'the record page in Turkish');
  await screenshot(page, 'labels-history-tr');
  await page.getByLabel('Dil', { exact: true }).selectOption('en');
  await page.getByRole('button', { name: 'Log out' }).waitFor();
});

test.serial('a record without events (a webhook delivery) shows no history, not an error', async (t) => {
  const { token } = await adminSession();
  const subscription = await create('webhook-subscription', {
    crProcessId: account.crProcessId,
    url: 'http://127.0.0.1:9/labels',
    eventTypes: ['business-partner.created'],
  });
  await createPartner(account.crProcessId);
  // the dispatcher's delivery row itself (it is the platform's own work: no event of its own)
  let delivery: { id: number } | undefined;
  for (let tries = 0; !delivery && tries < 100; tries++) {
    const listed = await api('POST', '/api/webhook-delivery/list', {
      token,
      body: { filter: { crProcessId: account.crProcessId, subscriptionId: subscription.id } },
    });
    delivery = listed.body.content?.[0];
    if (!delivery) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  t.truthy(delivery, 'a delivery was made');
  const admin = watch(await (await browser.newContext()).newPage());
  await admin.goto(consoleUrl(`/webhook-delivery/${delivery!.id}`));
  await logIn(admin, platform.adminUser, platform.adminPassword);
  const history = admin.getByRole('region', { name: 'History' });
  await history.getByText('No history.').waitFor();
  t.is(await history.getByRole('alert').count(), 0, 'no error under History');
  await admin.context().close();
});

test.serial('no page met a script error or a refusal of its content security policy', (t) => {
  t.deepEqual(scriptErrors, []);
});
