/**
 * Related records in the console, in a real Chromium (docs/adr/0114-related-lists-follow-from-the-references.md):
 * a partner's page lists its branches, contacts and files, each row a link to its record; "new branch"
 * there opens the form with the partner filled in; the full list behind a related list is filtered
 * by the partner; and a reference on a record page (a contract's partner) is a link to its record.
 * Its accruals, which name only their contract, are listed through it
 * (docs/adr/0141-a-list-filters-through-a-reference.md).
 * Screenshots go to test-output/console/.
 */
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { consoleUrl, logIn, openConsole, screenshot, scriptErrorWatch } from './helpers/console.ts';
import { upload } from './helpers/files.ts';
import {
  adminSession,
  create,
  createAccount,
  createAccrual,
  createBranch,
  createContract,
  createPartner,
  unique,
  userWithRoles,
  type TenantUser,
} from './helpers/factories.ts';

const ROLES = [...['business-partner', 'branch', 'contact', 'contract', 'accrual'].flatMap((path) => [`${path}:read`, `${path}:write`]), 'dms-file:read'];

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

/** The section of the record page that lists `heading`'s records. */
function relatedList(on: Page, heading: string) {
  return on.getByRole('region', { name: heading, exact: true });
}

test.serial(
  "a partner's page lists its branches, contacts and files, links to them, whose list links back, and offers a new branch with the partner filled in",
  async (t) => {
    const partner = await createPartner(account.crProcessId, { partnerName: unique('Related ') });
    const branch = await createBranch(account.crProcessId, partner.id, { branchName: unique('Harbour ') });
    const contact = await create('contact', {
      crProcessId: account.crProcessId,
      businessPartnerId: partner.id,
      firstName: unique('Ada '),
      lastName: 'Lovelace',
    });
    const stranger = await createPartner(account.crProcessId);
    await createBranch(account.crProcessId, stranger.id, { branchName: unique('Elsewhere ') });
    // a file linked to the partner by entityType/entityId, and one to the other partner
    const { token } = await adminSession();
    const fileName = `${unique('terms-')}.txt`;
    for (const [name, id] of [
      [fileName, partner.id],
      [`${unique('other-')}.txt`, stranger.id],
    ] as const) {
      const uploaded = await upload({
        token,
        crProcessId: account.crProcessId,
        content: 'terms',
        fileName: name,
        fields: { entityType: 'business-partner', entityId: String(id) },
      });
      t.is(uploaded.status, 200, uploaded.text);
    }

    await page.goto(consoleUrl(`/business-partner/${partner.id}`));
    await logIn(page, user.userCode, user.password);
    await page.getByRole('heading', { level: 1, name: `Business partner ${partner.partnerName}` }).waitFor();

    const branches = relatedList(page, 'Branches');
    await branches.getByRole('link', { name: branch.branchName }).waitFor();
    t.is(await branches.locator('tbody tr').count(), 1, "only the partner's own branch");
    const contacts = relatedList(page, 'Contacts');
    await contacts.getByRole('link', { name: contact.firstName }).waitFor();
    t.is(await contacts.locator('tbody tr').count(), 1);
    const files = relatedList(page, 'Files');
    await files.getByRole('link', { name: fileName }).waitFor();
    t.is(await files.locator('tbody tr').count(), 1, "only the partner's own file");
    t.is(await files.getByRole('link', { name: /^New/ }).count(), 0, 'files are made by an upload, not a form');
    await screenshot(page, 'related-partner');

    // the full list behind a related list is filtered by the partner
    await branches.getByRole('link', { name: /^All Branches/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Branches' }).waitFor();
    await page.locator('main table tbody tr').first().waitFor();
    await screenshot(page, 'related-all-branches');
    await page.getByRole('link', { name: branch.branchName }).waitFor();
    t.is(await page.locator('main table tbody tr').count(), 1, 'the branches list filtered by the partner');
    // in a list too, the branch's partner is a link to the partner's page, by its name
    const partnerCell = page.locator('main table tbody tr').first().getByRole('link', { name: partner.partnerName, exact: true });
    await partnerCell.waitFor();
    t.is(await partnerCell.getAttribute('href'), `/console/business-partner/${partner.id}`);
    await page.goBack();

    await relatedList(page, 'Contacts').getByRole('link', { name: contact.firstName }).click();
    await page.getByRole('heading', { level: 1, name: `Contact ${contact.firstName}` }).waitFor();
    t.regex(page.url(), new RegExp(`/console/contact/${contact.id}$`));
    // the contact's partner is a link back to the partner's page
    await page.locator('.record-fields').getByRole('link', { name: partner.partnerName }).click();
    await page.getByRole('heading', { level: 1, name: `Business partner ${partner.partnerName}` }).waitFor();

    await relatedList(page, 'Branches').getByRole('link', { name: 'New Branch' }).click();
    await page.getByRole('heading', { level: 1, name: 'New Branch' }).waitFor();
    const partnerInput = page.getByRole('combobox', { name: /^Business partner/ });
    // the picker shows the partner's name once it has read the partner
    for (let tries = 0; tries < 50 && !(await partnerInput.inputValue()).includes(partner.partnerName); tries++) await page.waitForTimeout(100);
    t.true((await partnerInput.inputValue()).includes(partner.partnerName), 'the partner is filled in');
    const branchName = unique('Depot ');
    await page.getByLabel(/^Branch name/).fill(branchName);
    await page.getByLabel(/^Branch code/).fill(unique('D-'));
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { level: 1, name: `Branch ${branchName}` }).waitFor();
    await page.locator('.record-fields').getByRole('link', { name: partner.partnerName }).waitFor();
    await screenshot(page, 'related-new-branch');
  },
);

test.serial("a contract's page shows its partner as a link to the partner's page, and a partner's page lists its contracts", async (t) => {
  const partner = await createPartner(account.crProcessId, { partnerName: unique('Contracted ') });
  const contract = await createContract(account.crProcessId, { businessPartnerId: partner.id });
  await page.goto(consoleUrl(`/contract/${contract.id}`));
  await page.getByRole('heading', { level: 1, name: new RegExp(`^Contract `) }).waitFor();
  const link = page.locator('.record-fields').getByRole('link', { name: partner.partnerName });
  t.is(await link.getAttribute('href'), `/console/business-partner/${partner.id}`);
  await link.click();
  await page.getByRole('heading', { level: 1, name: `Business partner ${partner.partnerName}` }).waitFor();
  await relatedList(page, 'Contracts').getByRole('link', { name: contract.contractNo }).waitFor();
  t.pass();
});

test.serial("a partner's page lists its accruals through its contracts, only its own, with no New, and the full list is filtered by the partner", async (t) => {
  const partner = await createPartner(account.crProcessId, { partnerName: unique('Accruing ') });
  const contracts = [
    await createContract(account.crProcessId, { businessPartnerId: partner.id }),
    await createContract(account.crProcessId, { businessPartnerId: partner.id }),
  ];
  const own = [
    await createAccrual(account.crProcessId, { contractId: contracts[0].id }),
    await createAccrual(account.crProcessId, { contractId: contracts[1].id, amount: '250.00' }),
  ];
  // another partner's accrual of the same tenant
  await createAccrual(account.crProcessId);

  await page.goto(consoleUrl(`/business-partner/${partner.id}`));
  await page.getByRole('heading', { level: 1, name: `Business partner ${partner.partnerName}` }).waitFor();
  const accruals = relatedList(page, 'Accruals');
  for (const accrual of own) await accruals.getByRole('link', { name: String(accrual.id), exact: true }).waitFor();
  t.is(await accruals.locator('tbody tr').count(), 2, "only the partner's own accruals");
  t.is(await accruals.getByRole('link', { name: /^New/ }).count(), 0, "an accrual's form names its contract, not the partner: no New here");
  // in the product's order: branches, contacts, contracts, accruals, files
  const headings = await page.locator('.related-lists h2').allTextContents();
  t.deepEqual(headings, ['Branches', 'Contacts', 'Contracts', 'Accruals', 'Files']);
  await screenshot(page, 'related-partner-accruals');

  await accruals.getByRole('link', { name: /^All Accruals/ }).click();
  await page.getByRole('heading', { level: 1, name: 'Accruals' }).waitFor();
  for (const accrual of own) await page.locator(`main table tbody a[href="/console/accrual/${accrual.id}"]`).first().waitFor();
  t.is(await page.locator('main table tbody tr').count(), 2, 'the accruals list filtered by the partner');
  // the filter is the list's own, shown with the partner's name and cleared like any other
  const filter = page.getByRole('combobox', { name: /^Business partner/ });
  for (let tries = 0; tries < 50 && !(await filter.inputValue()).includes(partner.partnerName); tries++) await page.waitForTimeout(100);
  t.true((await filter.inputValue()).includes(partner.partnerName), 'the partner filter shows the partner');
  await screenshot(page, 'related-all-accruals');
});

test.serial('no page met a script error or a refused script or style', (t) => {
  t.deepEqual(scriptErrors, []);
});
