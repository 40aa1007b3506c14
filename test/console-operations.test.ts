/**
 * The console's features beyond the CRUD set, in real Chromium: an accrual's moves on its page
 * (buttons by state and role), the dashboard's figures against the API, a super user ending another
 * user's session, a user's open sessions on its page, an exception found by its refId, and a webhook
 * secret rotated and shown once.
 * Screenshots of the dashboard, the sessions page and an accrual page go to test-output/console/.
 */
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from './helpers/axe.ts';
import { launchChromium } from './helpers/chromium.ts';
import { logIn, screenshot } from './helpers/console.ts';
import { withDb } from './helpers/db.ts';
import { adminSession, createAccount, createAccrual, createUser, freshTenant, login, userWithRoles } from './helpers/factories.ts';
import { upload } from './helpers/files.ts';
import { api, platform } from './helpers/platform.ts';

let browser: Browser;

test.before(async () => {
  browser = await launchChromium();
});

test.after.always(async () => {
  await browser?.close();
});

/** A page of a fresh browser context, logged in through the console's login page. */
async function consoleAs(userCode: string, password: string): Promise<Page> {
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  await page.goto(`${platform.url}/console/login`);
  await logIn(page, userCode, password);
  return page;
}

const asAdmin = () => consoleAs(platform.adminUser, platform.adminPassword);

async function adminTenant(): Promise<number> {
  const me = await api('GET', '/api/auth/me', { token: (await adminSession()).token });
  return Number(me.body.crProcessId);
}

test.serial(
  'an accrual is approved then invoiced on its page: each button, Edit and Delete too, shows only while the state allows it; the history follows',
  async (t) => {
    const accrual = await createAccrual(await adminTenant(), { amount: '42.50' });
    const page = await asAdmin();
    await page.goto(`${platform.url}/console/accrual/${accrual.id}`);
    const approve = page.getByRole('button', { name: 'Approve' });
    const invoice = page.getByRole('button', { name: 'Mark invoiced' });
    const cancel = page.getByRole('button', { name: 'Cancel accrual' });
    await approve.waitFor();
    t.is(await invoice.count(), 0, 'no invoice while PENDING');
    t.is(await cancel.count(), 1);
    t.deepEqual(await seriousViolations(page), [], 'an accrual with its moves');
    await screenshot(page, 'accrual-pending');

    const edit = page.getByRole('link', { name: 'Edit', exact: true });
    const remove = page.getByRole('button', { name: 'Delete', exact: true });
    t.is(await edit.count(), 1, 'a PENDING accrual is edited');
    t.is(await remove.count(), 1, 'a PENDING accrual is deleted');
    const history = page.getByRole('region', { name: 'History' });
    await history.getByRole('cell', { name: 'Created', exact: true }).waitFor();

    await approve.click();
    await page.getByRole('status').filter({ hasText: 'Approved' }).waitFor();
    await invoice.waitFor();
    t.is(await approve.count(), 0, 'approve is gone once APPROVED');
    // the history panel reads the move's event without a reload
    await history.getByRole('cell', { name: 'Approved', exact: true }).waitFor();
    // the states the declaration forbids an edit and a delete in: no button, and the page says why
    t.is(await edit.count(), 0, 'no Edit once APPROVED');
    t.is(await remove.count(), 0, 'no Delete once APPROVED');
    await page.getByText('It cannot be edited while its Accrual status is Approved.').waitFor();
    await page.getByText('It cannot be deleted while its Accrual status is Approved.').waitFor();
    t.is((await api('GET', `/api/accrual/${accrual.id}`, { token: (await adminSession()).token })).body.accrualStatus, 'APPROVED');

    await invoice.click();
    const dialog = page.getByRole('dialog', { name: `Mark accrual ${accrual.id} as invoiced` });
    await dialog.getByLabel('Invoice number (optional)').fill('INV-CONSOLE-1');
    await dialog.getByRole('button', { name: 'Mark invoiced' }).click();
    await page.getByRole('status').filter({ hasText: 'Invoiced' }).waitFor();
    await history.getByRole('cell', { name: 'Invoiced', exact: true }).waitFor();
    await page.getByText('It cannot be edited while its Accrual status is Invoiced.').waitFor();
    t.is((await edit.count()) + (await remove.count()), 0, 'no Edit nor Delete on an invoiced accrual');
    await screenshot(page, 'accrual-invoiced');
    t.is(await page.getByRole('button', { name: /^(Approve|Mark invoiced|Cancel accrual)$/ }).count(), 0, 'no move leaves INVOICED');
    const stored = (await api('GET', `/api/accrual/${accrual.id}`, { token: (await adminSession()).token })).body;
    t.like(stored, { accrualStatus: 'INVOICED', invoiceNo: 'INV-CONSOLE-1' });
    await page.context().close();
  },
);

test.serial('a user without accrual:approve sees no Approve button; a move another user made first is said in words', async (t) => {
  const account = await createAccount();
  const user = await userWithRoles(account, ['accrual:read', 'accrual:cancel']);
  const accrual = await createAccrual(account.crProcessId);
  const page = await consoleAs(user.userCode, user.password);
  await page.goto(`${platform.url}/console/accrual/${accrual.id}`);
  const cancel = page.getByRole('button', { name: 'Cancel accrual' });
  await cancel.waitFor();
  t.is(await page.getByRole('button', { name: 'Approve' }).count(), 0);
  t.is(await page.getByRole('button', { name: 'Mark invoiced' }).count(), 0);

  // cancelled behind the page's back: the page still offers it, the platform refuses with 409
  t.is((await api('POST', `/api/accrual/${accrual.id}/cancel`, { token: (await adminSession()).token })).status, 200);
  await cancel.click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel accrual' }).click();
  const alert = page.getByRole('alert').filter({ hasText: /./ });
  await alert.first().waitFor();
  const refused = await api('POST', `/api/accrual/${accrual.id}/cancel`, { token: (await adminSession()).token });
  t.is(refused.body.error_code, 'SVC-SYS-4004');
  // 409 SVC-SYS-4004 in the console's words (resources/error-messages.ts `transition`)
  t.true(
    (await alert.allInnerTexts()).some((text) => text.includes('This cannot be done in the record’s current state.')),
    'the refusal is said in words',
  );
  await page.getByRole('button', { name: 'Cancel accrual' }).waitFor({ state: 'detached' });
  await page.context().close();
});

test.serial("the dashboard shows the figures the API answers: its own tenant's accruals by state and month, and its files", async (t) => {
  // a tenant of this test's own, with a super user of it: no other test's accruals or uploads reach its figures
  const account = await createAccount();
  const tenant = account.crProcessId;
  const { user: boss, password } = await createUser([account.accountNo], { crProcessId: tenant, superUser: true }, { crProcessId: tenant });
  const { token } = await adminSession();
  const march = { periodStart: '2026-03-01', periodEnd: '2026-03-31' };
  const approved = await createAccrual(tenant, { amount: '10.00', ...march });
  t.is((await api('POST', `/api/accrual/${approved.id}/approve`, { token })).status, 200);
  await createAccrual(tenant, { amount: '2.50', ...march });
  const cancelled = await createAccrual(tenant, { amount: '7.00', ...march });
  t.is((await api('POST', `/api/accrual/${cancelled.id}/cancel`, { token })).status, 200);
  await createAccrual(tenant, { amount: '100.00' });
  for (const name of ['one.txt', 'two.txt', 'three.txt']) t.is((await upload({ token, crProcessId: tenant, content: name, fileName: name })).status, 200);
  const expected = { PENDING: 2, APPROVED: 1, INVOICED: 0, CANCELLED: 1 };
  const summary = (await api('GET', `/api/accrual/summary?crProcessId=${tenant}`, { token })).body;
  const usage = (await api('GET', `/api/dms-file/usage?crProcessId=${tenant}`, { token })).body;
  // the API's figures are those of the test's own actions
  for (const [state, count] of Object.entries(expected)) {
    t.is(
      summary.states.filter((row: any) => row.accrualStatus === state).reduce((sum: number, row: any) => sum + row.count, 0),
      count,
      state,
    );
  }
  t.like(
    summary.months.find((row: any) => row.month === '2026-03'),
    { currencyCode: 'EUR', count: 2 },
  );
  t.is(Number(summary.months.find((row: any) => row.month === '2026-03').amount), 12.5, 'March: 10.00 + 2.50, the cancelled 7.00 left out');
  t.is(usage.fileCount, 3);

  const page = await consoleAs(boss.userCode, password);
  await page.goto(`${platform.url}/console/dashboard`);
  await page.getByText(`Tenant ${account.accountNo} (${tenant})`).waitFor();
  const byState = page.getByRole('table', { name: 'Accruals by state' });
  await byState.waitFor({ state: 'attached' });
  for (const [state, count] of Object.entries(expected)) {
    const label = state[0] + state.slice(1).toLowerCase();
    const cell = byState.getByRole('row', { name: new RegExp(`^${label} `) }).getByRole('cell');
    t.is((await cell.textContent())?.trim(), String(count), state);
  }
  const months = page.getByRole('table', { name: /^Amount by month \(EUR\)/ }).first();
  const amount = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR' }).format(
    Number(summary.months.find((row: any) => row.month === '2026-03').amount),
  );
  t.is(amount, '€12.50');
  t.is(
    (
      await months
        .getByRole('row', { name: /^2026-03 / })
        .getByRole('cell')
        .textContent()
    )?.trim(),
    amount,
  );
  const storage = page.getByRole('table', { name: 'Storage used' });
  t.is(
    (
      await storage
        .getByRole('row', { name: /^Files / })
        .getByRole('cell')
        .textContent()
    )?.trim(),
    String(usage.fileCount),
  );
  await page.getByRole('table', { name: 'Sessions per day, last 14 days' }).waitFor({ state: 'attached' });
  t.deepEqual(await seriousViolations(page), [], 'the dashboard');
  await screenshot(page, 'dashboard');
  await page.context().close();
});

test.serial("a super user ends another user's session on the sessions page: that session's next request is 401", async (t) => {
  const account = await createAccount();
  const { user, password } = await createUser([account.accountNo]);
  const victim = await login(user.userCode, password);
  t.is((await api('GET', '/api/auth/me', { token: victim.token })).status, 200);
  const page = await asAdmin();
  await page.goto(`${platform.url}/console/operations/sessions`);
  await page.getByLabel('User code').fill(user.userCode);
  await page.getByRole('button', { name: 'Search' }).click();
  const end = page.getByRole('button', { name: new RegExp(`^End session of ${user.userCode}`) });
  await end.waitFor();
  t.deepEqual(await seriousViolations(page), [], 'the sessions page');
  await screenshot(page, 'sessions');
  await end.click();
  await page.getByRole('dialog', { name: 'End this session?' }).getByRole('button', { name: 'End session' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: `The session of ${user.userCode} has ended.` })
    .waitFor();
  t.is((await api('GET', '/api/auth/me', { token: victim.token })).status, 401);
  await end.waitFor({ state: 'detached' });
  await page.context().close();
});

test.serial("a user's page lists its open sessions to a super user, linking to the sessions page so filtered; others see none", async (t) => {
  const account = await createAccount();
  const tenant = { crProcessId: account.crProcessId };
  const { user, password } = await createUser([account.accountNo], tenant, tenant);
  await login(user.userCode, password);
  const page = await asAdmin();
  await page.goto(`${platform.url}/console/user-info/${user.id}`);
  const sessions = page.getByRole('region', { name: 'Open sessions', exact: true });
  await sessions.getByRole('cell', { name: account.accountNo, exact: true }).waitFor();
  t.is(await sessions.locator('tbody tr').count(), 1, "the user's one session");
  t.deepEqual(await seriousViolations(page), [], "a user's page with its sessions");
  await screenshot(page, 'user-sessions');
  await sessions.getByRole('link', { name: `All open sessions of ${user.userCode}` }).click();
  await page.getByRole('heading', { level: 1, name: 'Active sessions' }).waitFor();
  t.is(await page.getByLabel('User code').inputValue(), user.userCode, 'the sessions page opens filtered by the user');
  await page.getByRole('button', { name: new RegExp(`^End session of ${user.userCode}`) }).waitFor();
  t.is(await page.getByRole('button', { name: /^End session of / }).count(), 1, "only the user's session");
  await page.context().close();

  // a tenant administrator reads the user but may not call the operators' session list: no section
  const clerk = await userWithRoles(account, ['user-info:read']);
  const clerkPage = await consoleAs(clerk.userCode, clerk.password);
  await clerkPage.goto(`${platform.url}/console/user-info/${user.id}`);
  await clerkPage.getByRole('region', { name: 'History', exact: true }).waitFor();
  t.is(await clerkPage.getByRole('region', { name: 'Open sessions' }).count(), 0);
  await clerkPage.context().close();
});

test.serial('an exception is found by its refId', async (t) => {
  const marker = `boom_${Date.now()}`;
  await withDb(async (db) => {
    await db.query(`create function bpm.${marker}() returns trigger language plpgsql as $$
      begin if new.partner_name = '${marker}' then raise exception 'injected failure'; end if; return new; end $$`);
    await db.query(`create trigger ${marker} before insert on bpm.business_partner for each row execute function bpm.${marker}()`);
  });
  let refId: string;
  try {
    const res = await api('POST', '/api/business-partner', {
      token: (await adminSession()).token,
      body: { crProcessId: freshTenant(), partnerCode: marker, partnerName: marker, partnerType: 'CUSTOMER' },
    });
    t.is(res.status, 500);
    refId = res.body.refId;
  } finally {
    await withDb(async (db) => {
      await db.query(`drop trigger ${marker} on bpm.business_partner`);
      await db.query(`drop function bpm.${marker}()`);
    });
  }
  const page = await asAdmin();
  await page.goto(`${platform.url}/console/operations/exceptions`);
  await page.getByLabel('Reference id (refId)').fill(refId);
  await page.getByRole('button', { name: 'Find' }).click();
  const entry = page.getByRole('article', { name: `Entry ${refId}` });
  await entry.waitFor();
  t.true((await entry.textContent())?.includes('SVC-SYS-5001'));
  t.true((await entry.textContent())?.includes('/api/business-partner'));
  await page.context().close();
});

test.serial('a webhook secret is rotated and shown once, with a copy button', async (t) => {
  const { token } = await adminSession();
  const created = await api('POST', '/api/webhook-subscription', {
    token,
    body: { crProcessId: await adminTenant(), url: 'http://127.0.0.1:9/hook', eventTypes: ['branch.*'] },
  });
  t.is(created.status, 200, created.text);
  const page = await asAdmin();
  await page.goto(`${platform.url}/console/webhook-subscription/${created.body.id}`);
  await page.getByRole('button', { name: 'Rotate secret' }).click();
  await page.getByRole('dialog', { name: 'Rotate the signing secret?' }).getByRole('button', { name: 'Rotate secret' }).click();
  const shown = page.getByRole('dialog', { name: 'The signing secret' });
  const secret = await shown.getByLabel('Signing secret').inputValue();
  t.regex(secret, /^whsec_[A-Za-z0-9+/]{32}$/);
  t.not(secret, created.body.secret);
  t.true((await shown.textContent())?.includes('will not be shown again'));
  await shown.getByRole('button', { name: 'Copy' }).click();
  await shown.getByText('Copied to the clipboard.').waitFor();
  t.is(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText() as Promise<string>), secret);
  await shown.getByRole('button', { name: 'I have stored it' }).click();
  t.is((await api('GET', `/api/webhook-subscription/${created.body.id}`, { token })).body.secret, null, 'reads never carry it');
  await page.context().close();
});
