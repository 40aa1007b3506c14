/**
 * Roles by pointing, in a real Chromium (docs/adr/0124-roles-by-pointing-from-a-derived-catalogue.md):
 * a tenant administrator ticks a user's groups on the user's page and a group's roles on the
 * group's page, by mouse and by keyboard, and the user's live access follows at its next request
 * (docs/interface.md#identity: "A user holds the roles of the groups it is a member of in the
 * current tenant"); a new user's first tenant is ticked there too; the pages read in Turkish; axe
 * finds nothing serious at 1440×900 and 390×844. What the pages refuse, and to whom, is
 * console-access-limits.test.ts. Screenshots go to test-output/console/access-*.png.
 */
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from './helpers/axe.ts';
import { consoleUrl, openConsole, screenshot, scriptErrorWatch } from './helpers/console.ts';
import { accessWorld, clerkList, openGroup, openUser, type AccessWorld } from './helpers/console-access.ts';
import { create, unique } from './helpers/factories.ts';
import { api } from './helpers/platform.ts';

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

let browser: Browser;
let page: Page;
let world: AccessWorld;
const { errors: scriptErrors, watch } = scriptErrorWatch();

test.before(async () => {
  world = await accessWorld();
  ({ browser, page } = await openConsole(watch, { viewport: DESKTOP, logInAt: `/user-info/${world.clerk.user.id}`, as: world.admin }));
});

test.after.always(async () => {
  await browser?.close();
});

test.serial("ticking a group on the user's page by mouse gives its roles at the user's next request; its roles are named in words", async (t) => {
  const { clerk, partners } = world;
  await openUser(page, world);
  t.is(await clerkList(world, 'business-partner'), 403, 'no role before');
  const box = page.getByRole('checkbox', { name: partners.groupName });
  t.false(await box.isChecked());
  await t.notThrowsAsync(page.getByText('Grants: Business partners — read').waitFor(), "the group's role by its name, not its code");
  t.is(await page.getByText('business-partner:read').count(), 0, 'no role code is shown');
  await box.click();
  await page
    .getByRole('status')
    .filter({ hasText: `${clerk.user.userCode} is now a member of ${partners.groupName}.` })
    .waitFor();
  t.true(await box.isChecked());
  t.is(await clerkList(world, 'business-partner'), 200, 'the same token may list partners now');
  await screenshot(page, 'access-user');
});

test.serial("a role ticked on the group's page by keyboard and one by mouse; the group ticked on the user's page by keyboard", async (t) => {
  const { clerk, contracts } = world;
  await openGroup(page, contracts);
  const read = page.getByRole('checkbox', { name: 'Contracts — read' });
  await read.focus();
  await page.keyboard.press('Space');
  await page
    .getByRole('status')
    .filter({ hasText: `${contracts.groupName} now grants Contracts — read.` })
    .waitFor();
  t.true(await read.isChecked(), 'contracts read checked');
  const approve = page.getByRole('checkbox', { name: 'Accruals — approve' });
  await approve.click();
  await page
    .getByRole('status')
    .filter({ hasText: `${contracts.groupName} now grants Accruals — approve.` })
    .waitFor();
  t.true(await approve.isChecked(), 'approve checked');
  await screenshot(page, 'access-group');

  t.is(await clerkList(world, 'contract'), 403, 'not a member yet');
  await openUser(page, world);
  await page.getByText('Grants: Contracts — read, Accruals — approve').waitFor();
  const box = page.getByRole('checkbox', { name: contracts.groupName });
  await box.focus();
  await page.keyboard.press('Space');
  await page
    .getByRole('status')
    .filter({ hasText: `is now a member of ${contracts.groupName}.` })
    .waitFor();
  t.is(await clerkList(world, 'contract'), 200);
  const me = await api('GET', '/api/auth/me', { token: clerk.session.token });
  t.deepEqual(me.body.roles, ['accrual:approve', 'business-partner:read', 'contract:read']);
});

test.serial("unticking takes the roles away at the user's next request, and unticking a role on the group's page too", async (t) => {
  const { partners, contracts } = world;
  await openUser(page, world);
  const box = page.getByRole('checkbox', { name: partners.groupName });
  t.true(await box.isChecked());
  await box.click();
  await page
    .getByRole('status')
    .filter({ hasText: `is no longer a member of ${partners.groupName}.` })
    .waitFor();
  t.is(await clerkList(world, 'business-partner'), 403);

  await openGroup(page, contracts);
  await page.getByRole('checkbox', { name: 'Contracts — read' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: `${contracts.groupName} no longer grants Contracts — read.` })
    .waitFor();
  t.is(await clerkList(world, 'contract'), 403);
});

test.serial("a new user's first tenant is ticked on its page (the user-process made), its groups then open to it; the last untick ends it", async (t) => {
  const { tenant, admin, partners } = world;
  const fresh = await create('user-info', { crProcessId: tenant.crProcessId, userCode: unique('fresh-'), userDescription: 'Fresh', password: unique('pw-') });
  await page.goto(consoleUrl(`/user-info/${fresh.id}`));
  const here = page.getByRole('checkbox', { name: new RegExp(tenant.accountNo) });
  await here.waitFor();
  t.false(await here.isChecked());
  const group = page.getByRole('checkbox', { name: partners.groupName });
  t.true(await group.isDisabled(), 'no group for a user who does not work in the tenant');
  await page.getByText(`${fresh.userCode} does not work in this tenant: give the tenant membership first.`).waitFor();

  await here.click();
  await page
    .getByRole('status')
    .filter({ hasText: `${fresh.userCode} may now work in` })
    .waitFor();
  await page.locator('label', { hasText: partners.groupName }).locator('input:enabled').waitFor();
  const processes = () =>
    api('POST', '/api/user-process/list', {
      token: admin.token,
      body: { page: 0, size: 5, filter: { crProcessId: tenant.crProcessId, userCode: fresh.userCode } },
    });
  t.deepEqual(
    (await processes()).body.content[0].userProcessSelects.map((select: { accountNo: string }) => select.accountNo),
    [tenant.accountNo],
  );

  await here.click();
  await page
    .getByRole('status')
    .filter({ hasText: `${fresh.userCode} may no longer work in` })
    .waitFor();
  t.is((await processes()).body.totalElements, 0, 'the last tenant taken: the user-process is gone');
});

test.serial("the group's page reads in Turkish, with the roles' Turkish names", async (t) => {
  const { admin, contracts } = world;
  const context = await browser.newContext({ viewport: DESKTOP });
  const other = watch(await context.newPage());
  await other.addInitScript(() => globalThis.localStorage.setItem('console.language', 'tr'));
  await other.goto(consoleUrl(`/group/${contracts.id}`));
  await other.getByLabel('Kullanıcı kodu').fill(admin.userCode);
  await other.getByLabel('Parola').fill(admin.password);
  await other.getByRole('button', { name: 'Giriş yap' }).click();
  await other.getByRole('heading', { level: 2, name: 'Bu grubun rolleri' }).waitFor();
  await t.notThrowsAsync(other.getByRole('checkbox', { name: 'İş ortakları — okuma' }).waitFor());
  await screenshot(other, 'access-group-tr');
  await context.close();
});

for (const [size, viewport] of [
  ['1440×900', DESKTOP],
  ['390×844', PHONE],
] as const) {
  test.serial(`at ${size} the user's and the group's pages fit the window and axe finds no serious violation`, async (t) => {
    await page.setViewportSize(viewport);
    for (const [name, open] of [
      ['user', () => openUser(page, world)],
      ['group', () => openGroup(page, world.contracts)],
    ] as const) {
      await open();
      await screenshot(page, `access-${name}-${viewport.width}`);
      const width = await page.evaluate('[document.documentElement.scrollWidth, window.innerWidth]');
      const wide = await page.evaluate(
        `[...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 8).map((el) => el.tagName + '.' + el.className + ' ' + Math.round(el.getBoundingClientRect().right))`,
      );
      t.true((width as number[])[0]! <= (width as number[])[1]!, `the page is ${String(width)} wide: ${JSON.stringify(wide)}`);
      t.deepEqual(await seriousViolations(page), [], page.url());
    }
    await page.setViewportSize(DESKTOP);
  });
}

test.serial('no page script failed', (t) => {
  t.deepEqual(scriptErrors, []);
});
