/**
 * What the access pages refuse, and to whom, in a real Chromium
 * (docs/adr/0125-a-tenant-finds-its-members-not-others.md, docs/adr/0126-the-console-offers-what-the-live-roles-allow.md):
 * a user of another tenant with a select for this one is found and added, one without is not; a
 * super user gives another tenant by its account number; a user without the roles sees the boxes
 * disabled with the reason; what only a super user may change is offered to no tenant
 * administrator; a role taken away is no longer offered at the next page; a box written meanwhile
 * elsewhere is refused in the platform's words.
 */
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { consoleUrl, logIn, openConsole, scriptErrorWatch } from './helpers/console.ts';
import { accessWorld, clerkList, openGroup, openUser, VIEWER_ROLES, type AccessWorld } from './helpers/console-access.ts';
import { createAccount, createGroupWithRoles, createPartner, createUser, unique, userWithRoles } from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';

const DESKTOP = { width: 1440, height: 900 };
const tag = unique('acc');

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

test.serial('a box changed meanwhile by someone else: the platform refuses in words, and the box then shows what is held', async (t) => {
  const { tenant, admin, clerk } = world;
  const late = await createGroupWithRoles(tenant.crProcessId, ['product:read']);
  await openUser(page, world);
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
  t.is(await clerkList(world, 'product'), 200, 'the membership made elsewhere holds');
});

test.serial('the member picker finds a user of another tenant who works in this one, adds it, and finds nobody else', async (t) => {
  const { tenant, admin, partners, contracts } = world;
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
  const userCode = page.getByRole('combobox', { name: /^User( \*)?$/ });
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
  const { tenant, admin } = world;
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
  const { tenant, clerk, partners, contracts } = world;
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
  const { tenant, clerk } = world;
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
  const { tenant, admin } = world;
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

test.serial('no page script failed', (t) => {
  t.deepEqual(scriptErrors, []);
});
