/**
 * Roles by pointing, in a real Chromium (docs/adr/0132-roles-by-pointing-from-a-derived-catalogue.md,
 * docs/adr/0133-a-tenant-finds-its-members-not-others.md): a tenant administrator ticks a user's
 * groups on the user's page and a group's roles on the group's page, by mouse and by keyboard, and
 * the user's live access follows at its next request (docs/interface.md#identity: "A user holds the
 * roles of the groups it is a member of in the current tenant"); a user of another tenant with a
 * select for this one is found and added, one without is not; a user without the roles sees the
 * boxes disabled with the reason; axe finds nothing serious at 1440×900 and 390×844.
 * Screenshots go to test-output/console/access-*.png.
 */
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from './helpers/axe.ts';
import { launchChromium } from './helpers/chromium.ts';
import { consoleUrl, logIn, screenshot, scriptErrorWatch } from './helpers/console.ts';
import {
  create,
  createAccount,
  createGroupWithRoles,
  createPartner,
  createUser,
  login,
  unique,
  userWithRoles,
  type Session,
  type TenantUser,
} from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** What a tenant administrator holds to give access: users, memberships, groups and their roles. */
const ADMIN_ROLES = [
  'user-info:read',
  ...['user-process', 'group-member', 'group-role'].flatMap((path) => [`${path}:read`, `${path}:write`, `${path}:delete`]),
  'group:read',
  'role-type:read',
  'role-type:write',
];
/** Who may look at access but change nothing. */
const VIEWER_ROLES = ['user-info:read', 'user-process:read', 'group:read', 'group-member:read', 'group-role:read', 'role-type:read'];

let browser: Browser;
let page: Page;
let tenant: { accountNo: string; crProcessId: number };
let admin: TenantUser;
let clerk: { user: { id: number; userCode: string }; session: Session };
let partners: { id: number; groupName: string };
let contracts: { id: number; groupName: string };
const tag = unique('acc');
const { errors: scriptErrors, watch } = scriptErrorWatch();

test.before(async () => {
  tenant = await createAccount();
  admin = await userWithRoles(tenant, ADMIN_ROLES);
  const made = await createUser([tenant.accountNo], { crProcessId: tenant.crProcessId, userDescription: 'Clerk Ada' }, { crProcessId: tenant.crProcessId });
  clerk = { user: made.user, session: await login(made.user.userCode, made.password) };
  partners = await createGroupWithRoles(tenant.crProcessId, ['business-partner:read']);
  contracts = await createGroupWithRoles(tenant.crProcessId, []);
  browser = await launchChromium();
  page = watch(await (await browser.newContext({ viewport: DESKTOP })).newPage());
  await page.goto(consoleUrl(`/user-info/${clerk.user.id}`));
  await logIn(page, admin.userCode, admin.password);
});

test.after.always(async () => {
  await browser?.close();
});

/** The clerk's answer to a list of `path` in its tenant, with the token it had all along. */
async function clerkList(path: string): Promise<number> {
  return (await api('POST', `/api/${path}/list`, { token: clerk.session.token, body: { page: 0, size: 1, filter: { crProcessId: tenant.crProcessId } } }))
    .status;
}

async function openUser(on: Page): Promise<void> {
  await on.goto(consoleUrl(`/user-info/${clerk.user.id}`));
  await on.getByRole('heading', { level: 2, name: 'Access' }).waitFor();
  await on.getByRole('checkbox', { name: partners.groupName }).waitFor();
}

async function openGroup(on: Page, group: { id: number; groupName: string }): Promise<void> {
  await on.goto(consoleUrl(`/group/${group.id}`));
  await on.getByRole('heading', { level: 2, name: 'Roles of this group' }).waitFor();
  await on.getByRole('checkbox', { name: 'Business partners — read' }).waitFor();
}

test.serial("ticking a group on the user's page by mouse gives its roles at the user's next request; its roles are named in words", async (t) => {
  await openUser(page);
  t.is(await clerkList('business-partner'), 403, 'no role before');
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
  t.is(await clerkList('business-partner'), 200, 'the same token may list partners now');
  await screenshot(page, 'access-user');
});

test.serial("a role ticked on the group's page by keyboard and one by mouse; the group ticked on the user's page by keyboard", async (t) => {
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

  t.is(await clerkList('contract'), 403, 'not a member yet');
  await openUser(page);
  await page.getByText('Grants: Contracts — read, Accruals — approve').waitFor();
  const box = page.getByRole('checkbox', { name: contracts.groupName });
  await box.focus();
  await page.keyboard.press('Space');
  await page
    .getByRole('status')
    .filter({ hasText: `is now a member of ${contracts.groupName}.` })
    .waitFor();
  t.is(await clerkList('contract'), 200);
  const me = await api('GET', '/api/auth/me', { token: clerk.session.token });
  t.deepEqual(me.body.roles, ['accrual:approve', 'business-partner:read', 'contract:read']);
});

test.serial("unticking takes the roles away at the user's next request, and unticking a role on the group's page too", async (t) => {
  await openUser(page);
  const box = page.getByRole('checkbox', { name: partners.groupName });
  t.true(await box.isChecked());
  await box.click();
  await page
    .getByRole('status')
    .filter({ hasText: `is no longer a member of ${partners.groupName}.` })
    .waitFor();
  t.is(await clerkList('business-partner'), 403);

  await openGroup(page, contracts);
  await page.getByRole('checkbox', { name: 'Contracts — read' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: `${contracts.groupName} no longer grants Contracts — read.` })
    .waitFor();
  t.is(await clerkList('contract'), 403);
});

test.serial("a new user's first tenant is ticked on its page (the user-process made), its groups then open to it; the last untick ends it", async (t) => {
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

test.serial('a box changed meanwhile by someone else: the platform refuses in words, and the box then shows what is held', async (t) => {
  const late = await createGroupWithRoles(tenant.crProcessId, ['product:read']);
  await openUser(page);
  const box = page.getByRole('checkbox', { name: late.groupName });
  await box.waitFor();
  t.false(await box.isChecked());
  // another administrator makes the membership while this page shows it unticked
  await api('POST', '/api/group-member', { token: admin.token, body: { crProcessId: tenant.crProcessId, groupId: late.id, userCode: clerk.user.userCode } });
  await box.click();
  await page.getByRole('alert').filter({ hasText: 'SVC-SYS-4005' }).waitFor();
  // the page reads the membership again after the refusal: the box shows it held
  await page.locator('label', { hasText: late.groupName }).locator('input:checked').waitFor();
  t.is(
    await page
      .getByRole('status')
      .filter({ hasText: `is now a member of ${late.groupName}` })
      .count(),
    0,
    'no success message for a refused write',
  );
  t.is(await clerkList('product'), 200, 'the membership made elsewhere holds');
});

test.serial('the member picker finds a user of another tenant who works in this one, adds it, and finds nobody else', async (t) => {
  const other = await createAccount();
  const visitor = await createUser(
    [tenant.accountNo, other.accountNo],
    { crProcessId: other.crProcessId, userCode: `${tag}-visitor`, userDescription: `Visiting ${tag}` },
    { crProcessId: other.crProcessId },
  );
  const stranger = await createUser(
    [other.accountNo],
    { crProcessId: other.crProcessId, userCode: `${tag}-stranger`, userDescription: `Stranger ${tag}` },
    { crProcessId: other.crProcessId },
  );
  await openGroup(page, contracts);
  const picker = page.getByRole('combobox', { name: 'Add a member' });
  await picker.fill(tag);
  const options = page.getByRole('listbox', { name: 'Add a member' }).getByRole('option');
  await options.filter({ hasText: `Visiting ${tag} (${visitor.user.userCode})` }).waitFor();
  t.is(await options.count(), 1, 'the stranger without a select for the tenant is not offered');
  await picker.press('ArrowDown');
  await picker.press('Enter');
  await page
    .getByRole('status')
    .filter({ hasText: `${visitor.user.userCode} is now a member of ${contracts.groupName}.` })
    .waitFor();
  await page.getByRole('button', { name: `Remove ${visitor.user.userCode}` }).waitFor();
  const members = await api('POST', '/api/group-member/list', {
    token: admin.token,
    body: { page: 0, size: 10, filter: { crProcessId: tenant.crProcessId, groupId: contracts.id, userCode: visitor.user.userCode } },
  });
  t.is(members.body.totalElements, 1, members.text);

  await picker.fill(stranger.user.userCode);
  await options.filter({ hasText: 'No user of this tenant matches.' }).waitFor();
  t.is(await options.filter({ hasText: stranger.user.userCode }).count(), 0);

  // the generic form of a group member offers the same users (its reference declares them its candidates)
  await page.goto(consoleUrl(`/group-member/new?groupId=${partners.id}`));
  const userCode = page.getByRole('combobox', { name: /^User code/ });
  await userCode.fill(tag);
  const offered = page.getByRole('option');
  await offered.filter({ hasText: visitor.user.userCode }).waitFor();
  t.is(await offered.filter({ hasText: stranger.user.userCode }).count(), 0, 'nor the stranger there');
  await userCode.press('ArrowDown');
  await userCode.press('Enter');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1, name: /^Group member/ }).waitFor();
  const made = await api('POST', '/api/group-member/list', {
    token: admin.token,
    body: { page: 0, size: 10, filter: { crProcessId: tenant.crProcessId, groupId: partners.id, userCode: visitor.user.userCode } },
  });
  t.is(made.body.totalElements, 1, made.text);
});

test.serial('a super user gives a user of another tenant this tenant by its account number; its administrator then finds the user', async (t) => {
  const other = await createAccount();
  const moved = await createUser([other.accountNo], { crProcessId: other.crProcessId, userCode: `${tag}-moved` }, { crProcessId: other.crProcessId });
  const found = () => api('GET', `/api/user-info/tenant-members?crProcessId=${tenant.crProcessId}&searchTerm=${tag}-moved`, { token: admin.token });
  t.deepEqual((await found()).body, [], 'not a member of the tenant yet');

  const context = await browser.newContext({ viewport: DESKTOP });
  const chief = watch(await context.newPage());
  await chief.goto(consoleUrl(`/user-info/${moved.user.id}`));
  await logIn(chief, platform.adminUser, platform.adminPassword);
  await chief.getByRole('checkbox', { name: new RegExp(other.accountNo) }).waitFor();
  await chief.getByLabel('Another tenant, by its account number').fill(tenant.accountNo);
  await chief.getByRole('button', { name: 'Add the tenant' }).click();
  await chief
    .getByRole('status')
    .filter({ hasText: `${moved.user.userCode} may now work in` })
    .waitFor();
  t.true(await chief.getByRole('checkbox', { name: new RegExp(tenant.accountNo) }).isChecked());
  await chief.getByLabel('Another tenant, by its account number').fill('NO-SUCH-ACCOUNT');
  await chief.getByRole('button', { name: 'Add the tenant' }).click();
  await t.notThrowsAsync(chief.getByRole('alert').first().waitFor(), 'an unknown account number is refused in words');
  await context.close();

  t.deepEqual(
    (await found()).body.map((each: { userCode: string }) => each.userCode),
    [moved.user.userCode],
  );
});

test.serial('a user without the roles to change access sees every box disabled, with the reason, and no edit or delete', async (t) => {
  const viewer = await userWithRoles(tenant, VIEWER_ROLES);
  const context = await browser.newContext({ viewport: DESKTOP });
  const other = watch(await context.newPage());
  await other.goto(consoleUrl(`/user-info/${clerk.user.id}`));
  await logIn(other, viewer.userCode, viewer.password);
  await other.getByRole('heading', { level: 2, name: 'Access' }).waitFor();
  const box = other.getByRole('checkbox', { name: partners.groupName });
  await box.waitFor();
  t.true(await box.isDisabled());
  await other.getByText('You cannot change this: it needs the role “Group members — write”.').waitFor();
  t.is((await box.getAttribute('aria-describedby')) !== null, true, 'the box points at its reason');
  t.is(await other.getByRole('link', { name: 'Edit' }).count(), 0, 'no edit without user-info:write');
  t.is(await other.getByRole('button', { name: 'Delete' }).count(), 0, 'no delete without user-info:delete');

  await openGroup(other, contracts);
  t.true(await other.getByRole('checkbox', { name: 'Business partners — read' }).isDisabled());
  await other.getByText('You cannot change this: it needs the role “Group roles — write”, “Roles — write”.').waitFor();
  t.true(await other.getByRole('combobox', { name: 'Add a member' }).isDisabled());
  await context.close();
});

test.serial('what the service keeps for super users is offered to no tenant administrator, who is told why', async (t) => {
  const other = await createAccount();
  // kept in this tenant, working in another one too: only a super user changes its memberships
  const shared = await createUser([tenant.accountNo, other.accountNo], { crProcessId: tenant.crProcessId }, { crProcessId: tenant.crProcessId });
  const chief = await createUser([tenant.accountNo], { crProcessId: tenant.crProcessId, superUser: true }, { crProcessId: tenant.crProcessId });
  const reason = 'Only a super user changes the memberships of a user who also works in another tenant.';

  await page.goto(consoleUrl(`/user-process/${shared.process.id}`));
  await page.getByText(reason).first().waitFor();
  t.is(await page.getByRole('link', { name: 'Edit' }).count(), 0, 'no edit of a shared user-process, though the roles grant it');
  t.is(await page.getByRole('button', { name: 'Delete' }).count(), 0);

  await page.goto(consoleUrl(`/user-info/${shared.user.id}`));
  const box = page.getByRole('checkbox', { name: new RegExp(other.accountNo) });
  await box.waitFor();
  t.true(await box.isChecked());
  t.true(await box.isDisabled());
  await t.notThrowsAsync(page.getByText('Only a super user grants or removes another tenant.').waitFor());

  const keeper = await userWithRoles(tenant, ['user-info:read', 'user-info:write', 'user-info:delete']);
  const context = await browser.newContext({ viewport: DESKTOP });
  const second = watch(await context.newPage());
  await second.goto(consoleUrl(`/user-info/${chief.user.id}`));
  await logIn(second, keeper.userCode, keeper.password);
  await second.getByText('Only a super user changes or deletes a super user.').first().waitFor();
  t.is(await second.getByRole('link', { name: 'Edit' }).count(), 0);
  t.is(await second.getByRole('button', { name: 'Delete' }).count(), 0);
  await second.goto(consoleUrl(`/user-info/${clerk.user.id}`));
  await second.getByRole('link', { name: 'Edit' }).waitFor();
  t.pass('a user who is no super user is editable by the same administrator');
  await context.close();
});

test.serial('a role taken away while the console is open: the next page offers no action it granted', async (t) => {
  const writer = await userWithRoles(tenant, ['business-partner:read', 'business-partner:write']);
  const partner = await createPartner(tenant.crProcessId);
  const context = await browser.newContext({ viewport: DESKTOP });
  const other = watch(await context.newPage());
  await other.goto(consoleUrl(`/business-partner/${partner.id}`));
  await logIn(other, writer.userCode, writer.password);
  const edit = other.getByRole('link', { name: 'Edit' });
  await edit.waitFor();

  // write taken from the writer's group, by its administrator, elsewhere
  const grants = await api('POST', '/api/group-role/list', {
    token: admin.token,
    body: { page: 0, size: 10, filter: { crProcessId: tenant.crProcessId, groupId: writer.group.id } },
  });
  const types = await api('POST', '/api/role-type/list', {
    token: admin.token,
    body: { page: 0, size: 1, filter: { crProcessId: tenant.crProcessId, roleCode: 'business-partner:write' } },
  });
  const grant = grants.body.content.find((each: { roleTypeId: number }) => each.roleTypeId === types.body.content[0].id);
  t.is((await api('DELETE', `/api/group-role/${grant.id}`, { token: admin.token })).status, 204);

  await other.getByRole('link', { name: 'Back to the list' }).click();
  await other.getByRole('link', { name: partner.partnerName }).waitFor();
  await other.getByRole('link', { name: /^Create/ }).waitFor({ state: 'detached' });
  await other.getByRole('link', { name: partner.partnerName }).click();
  await other.getByRole('heading', { level: 1, name: new RegExp(partner.partnerName) }).waitFor();
  t.is(await edit.count(), 0, 'no edit once write is gone');
  await context.close();
});

test.serial("the group's page reads in Turkish, with the roles' Turkish names", async (t) => {
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
    for (const open of [() => openUser(page), () => openGroup(page, contracts)]) {
      await open();
      const width = await page.evaluate('[document.documentElement.scrollWidth, window.innerWidth]');
      const wide = await page.evaluate(
        `[...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 8).map((el) => el.tagName + '.' + el.className + ' ' + Math.round(el.getBoundingClientRect().right))`,
      );
      t.true((width as number[])[0]! <= (width as number[])[1]!, `the page is ${String(width)} wide: ${JSON.stringify(wide)}`);
      t.deepEqual(await seriousViolations(page), [], page.url());
    }
    await screenshot(page, `access-group-${viewport.width}`);
    await page.setViewportSize(DESKTOP);
  });
}

test.serial('no page script failed', (t) => {
  t.deepEqual(scriptErrors, []);
});
