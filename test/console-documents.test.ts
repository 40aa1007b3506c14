/**
 * The console's documents in a real Chromium (gateway/console/src/features/documents and
 * share-public): a tenant user with the dms roles makes a category, uploads a 50 MB file through
 * the file input while the progress bar moves, downloads it back through the file page's link (the
 * same SHA-256), previews a PNG and a PDF, shares the file behind a password and opens the share
 * in a fresh browser as its recipient (a wrong password refused, the right one downloads the same
 * bytes), sets a legal hold (the page then offers no Delete and says why, the API refuses one, and
 * the file read back through the API is unchanged), and checks the audit chain; a cancelled or refused
 * upload stores nothing, as the database and the usage say. Screenshots go to test-output/console/.
 */
import test from 'ava';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Download, Page } from 'playwright-core';
import { SESSION_COOKIE } from '@platform/kit/auth/request-token.ts';
import { translate } from '@platform/kit/i18n/messages.ts';
import { seriousViolations } from './helpers/axe.ts';
import { launchChromium } from './helpers/chromium.ts';
import { screenshot } from './helpers/console.ts';
import { create, createAccount, userWithRoles, type TenantUser } from './helpers/factories.ts';
import { sql } from './helpers/db.ts';
import { api, platform } from './helpers/platform.ts';

const ROLES = [
  'dms-category:read',
  'dms-category:write',
  'dms-file:read',
  'dms-file:write',
  'dms-file:delete',
  'dms-share-link:read',
  'dms-share-link:write',
  'dms-share-link:delete',
  'dms-audit-log:read',
  'dms-retention-policy:read',
] as const;
const BIG = 50 * 1024 * 1024;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const PDF = `%PDF-1.4
1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj
2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj
3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj
trailer<</Root 1 0 R>>
%%EOF
`;

let browser: Browser;
let context: BrowserContext;
let page: Page;
let user: TenantUser;
let crProcessId: number;
let workDir: string;
let bigFile: string;
let bigSha: string;
/** The share page's URL the file page copied, and the link's password. */
let shared: { url: string; password: string } | undefined;

test.before(async () => {
  const account = await createAccount();
  crProcessId = account.crProcessId;
  user = await userWithRoles(account, ROLES);
  workDir = await mkdtemp(join(tmpdir(), 'console-documents-'));
  bigFile = join(workDir, 'big-archive.bin');
  await writeFile(bigFile, randomBytes(BIG));
  bigSha = await sha256Of(bigFile);
  browser = await launchChromium();
  context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: platform.url });
  // the user's session, as its login set it: the console reads who it is from GET /api/auth/me
  await context.addCookies([{ name: SESSION_COOKIE, value: user.token, url: platform.url }]);
  page = await context.newPage();
});

test.after.always(async () => {
  await browser?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

function sha256Of(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });
}

async function savedSha(download: Download): Promise<string> {
  const path = await download.path();
  return sha256Of(path);
}

/**
 * Waits until `expression` holds in the page. Not Playwright's waitForFunction: it evaluates a
 * string by eval in the page, which the console's CSP (no 'unsafe-eval') refuses.
 */
async function until(expression: string, timeout = 30_000): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > deadline) throw new Error(`not within ${timeout} ms: ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The id of the tenant's live file named `name` (there is one), as the API lists it. */
async function fileIdOf(name: string): Promise<number> {
  const files = await api('POST', '/api/dms-file/list', { token: user.token, body: { page: 0, size: 50, filter: { crProcessId } } });
  const matching = files.body.content.filter((file: { originalFileName: string }) => file.originalFileName === name);
  if (matching.length !== 1) throw new Error(`files named ${name}: ${matching.length}`);
  return matching[0].id;
}

/** What the tenant has stored, beneath the console: its file rows (deleted ones too), its UPLOAD audit rows, the bytes its live files use. */
async function storedState(): Promise<{ rows: number; uploads: number; usedBytes: number }> {
  const [files] = await sql('select count(*)::int as n from dms.dms_file where cr_process_id = $1', [crProcessId]);
  const [uploads] = await sql(`select count(*)::int as n from dms.dms_audit_log where cr_process_id = $1 and action = 'UPLOAD'`, [crProcessId]);
  const usage = await api('GET', `/api/dms-file/usage?crProcessId=${crProcessId}`, { token: user.token });
  if (usage.status !== 200) throw new Error(`usage: ${usage.status} ${usage.text}`);
  return { rows: files?.n, uploads: uploads?.n, usedBytes: usage.body.usedBytes };
}

/** Opens a console path and waits for its heading. */
async function open(path: string, heading: string | RegExp): Promise<void> {
  await page.goto(`${platform.url}/console/${path}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

test.serial('a category is made in the tree, which the keyboard walks', async (t) => {
  await open('documents', 'Documents');
  await page.getByLabel('Category name').fill('Contracts');
  await page.getByRole('button', { name: 'Create category' }).click();
  const item = page.getByRole('treeitem', { name: 'Contracts' });
  await item.waitFor();
  t.is(await item.getAttribute('aria-selected'), 'true', 'the new category is selected');
  await page.getByRole('heading', { name: 'Files in “Contracts”' }).waitFor();

  // a child inside it, then the keyboard: Left closes, Right opens and steps in, Up goes back
  await page.getByLabel('Category name').fill('2026');
  await page.getByRole('button', { name: 'Create category' }).click();
  await page.getByRole('treeitem', { name: '2026' }).waitFor();
  t.is(await page.getByRole('tree').getByRole('treeitem').count(), 3, 'All files, Contracts and its child');
  await page.getByRole('treeitem', { name: /^Contracts/ }).focus();
  await page.keyboard.press('ArrowLeft');
  await page.getByRole('treeitem', { name: '2026' }).waitFor({ state: 'detached' });
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  t.is(await page.evaluate('document.activeElement?.textContent'), '2026', 'Right stepped into the child');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  t.is(await page.getByRole('treeitem', { name: /^Contracts/ }).getAttribute('aria-selected'), 'true', 'Enter selected Contracts');
});

test.serial('a 50 MB upload shows its progress, lands in the category and downloads the same bytes', async (t) => {
  // what the progress bar showed, sampled every few milliseconds while the upload runs (strings: the
  // test's TypeScript has no DOM types)
  await page.evaluate(`
    window.progressSeen = [];
    setInterval(() => {
      const bar = document.querySelector('progress');
      if (bar && window.progressSeen.at(-1) !== bar.value) window.progressSeen.push(bar.value);
    }, 5);
  `);
  await page.getByLabel('Choose files').setInputFiles(bigFile);
  const progress = page.getByRole('progressbar', { name: 'Upload of big-archive.bin' });
  await progress.waitFor();
  await page.getByRole('status').filter({ hasText: 'Uploaded' }).waitFor({ timeout: 60_000 });
  const seen = (await page.evaluate('window.progressSeen')) as number[];
  t.true(
    seen.some((value) => value > 0 && value < 100),
    `the bar showed values between 0 and 100: ${seen.join(', ')}`,
  );
  t.is(seen[seen.length - 1], 100);
  t.log(`progress values seen: ${seen.length} (${seen.slice(0, 12).join(', ')}${seen.length > 12 ? ', …' : ''})`);
  await page.getByRole('link', { name: 'big-archive.bin' }).waitFor();
  t.deepEqual(await seriousViolations(page), [], 'the documents page');
  await screenshot(page, 'documents');

  await page.getByRole('link', { name: 'big-archive.bin' }).click();
  await page.getByRole('heading', { level: 1, name: 'big-archive.bin' }).waitFor();
  t.truthy(await page.getByText('Contracts', { exact: true }).count(), 'the file page names its category');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download', exact: true }).click()]);
  t.is(download.suggestedFilename(), 'big-archive.bin');
  t.is(await savedSha(download), bigSha, 'the downloaded bytes are the uploaded ones');
});

test.serial('a PNG previews as an image, a PDF in a frame', async (t) => {
  await open('documents', 'Documents');
  await page.getByLabel('Choose files').setInputFiles([
    { name: 'pixel.png', mimeType: 'image/png', buffer: PNG },
    { name: 'contract.pdf', mimeType: 'application/pdf', buffer: Buffer.from(PDF) },
  ]);
  await page.getByRole('link', { name: 'pixel.png' }).waitFor();
  await page.getByRole('link', { name: 'contract.pdf' }).waitFor();
  // a file dropped on the page uploads as a chosen one does
  await page.evaluate(`(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['dropped words'], 'dropped.txt', { type: 'text/plain' }));
    for (const type of ['dragenter', 'dragover', 'drop'])
      document.querySelector('h1').dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
  })()`);
  await page.getByRole('link', { name: 'dropped.txt' }).waitFor();

  await page.getByRole('link', { name: 'pixel.png' }).click();
  const image = page.getByRole('img', { name: 'Preview of pixel.png' });
  await image.waitFor();
  await until(`document.querySelector('img.doc-preview-image')?.complete === true`);
  t.is(await page.evaluate(`document.querySelector('img.doc-preview-image').naturalWidth`), 1, 'Chromium shows the image');

  await page.goBack();
  await page.getByRole('link', { name: 'contract.pdf' }).click();
  const frame = page.locator('iframe[title="Preview of contract.pdf"]');
  await frame.waitFor();
  // Chromium's PDF viewer is an extension frame inside the preview's frame
  const viewer = await page
    .waitForEvent('frameattached', { predicate: (attached) => attached.url().startsWith('chrome-extension://'), timeout: 10_000 })
    .catch(() => page.frames().find((candidate) => candidate.url().startsWith('chrome-extension://')));
  t.truthy(viewer ?? page.frames().find((candidate) => candidate.url().startsWith('chrome-extension://')), "the PDF opens in Chromium's viewer in the frame");
  t.truthy(await page.getByRole('link', { name: 'Open in a new tab' }).getAttribute('href'));
});

test.serial('a share link with a password: copied from the file page, refused a wrong password, downloads the same bytes', async (t) => {
  await open('documents', 'Documents');
  await page.getByRole('link', { name: 'big-archive.bin' }).click();
  await page.getByRole('heading', { level: 1, name: 'big-archive.bin' }).waitFor();
  const password = 'open sesame 42';
  await page.getByLabel('Password (optional)').fill(password);
  await page.getByLabel('Maximum downloads').fill('3');
  await page.getByRole('button', { name: 'Create share link' }).click();
  await page.getByRole('cell', { name: '0 of 3' }).waitFor();
  await page.getByRole('button', { name: /^Copy link/ }).click();
  await page.getByRole('status').filter({ hasText: 'Link copied.' }).waitFor();
  const url = (await page.evaluate('navigator.clipboard.readText()')) as string;
  t.regex(url, new RegExp(`^${platform.url}/console/share/[A-Za-z0-9_-]+$`), 'the console page of the token is copied');
  shared = { url, password };
  t.deepEqual(await seriousViolations(page), [], "a file's page with its share links");
  await screenshot(page, 'file');

  // the recipient: a fresh browser context, no session
  const recipient = await browser.newContext({ acceptDownloads: true });
  try {
    const share = await recipient.newPage();
    await share.goto(url);
    await share.getByRole('heading', { name: 'Shared file' }).waitFor();
    await share.getByLabel('Password').fill('not it');
    await share.getByRole('button', { name: 'Open' }).click();
    await share.getByRole('alert').filter({ hasText: 'Wrong password.' }).waitFor();

    await share.getByLabel('Password').fill(password);
    await share.getByRole('button', { name: 'Open' }).click();
    await share.getByText('big-archive.bin').waitFor();
    t.truthy(await share.getByText('50 MB').count(), 'the page names the size');
    t.deepEqual(await seriousViolations(share), [], 'the public share page');
    await screenshot(share, 'share');
    const [download] = await Promise.all([share.waitForEvent('download'), share.getByRole('link', { name: 'Download' }).click()]);
    t.is(await savedSha(download), bigSha, 'the recipient downloads the uploaded bytes');

    // in Turkish, an unknown link says so
    await share.getByLabel('Language').selectOption('tr');
    await share.goto(`${platform.url}/console/share/no-such-token`);
    await share.getByRole('alert').filter({ hasText: 'Böyle bir bağlantı yok.' }).waitFor();
  } finally {
    await recipient.close();
  }

  await page.reload();
  await page.getByRole('cell', { name: '1 of 3' }).waitFor();

  // deactivated, the link is gone for its recipient
  await page.getByRole('button', { name: 'Deactivate' }).click();
  await page.getByRole('cell', { name: 'Inactive' }).waitFor();
  const late = await browser.newContext();
  try {
    const share = await late.newPage();
    await share.goto(url);
    await share.getByRole('alert').filter({ hasText: 'This link has expired, was deactivated or has been used up.' }).waitFor();
  } finally {
    await late.close();
  }
  await page.getByRole('button', { name: 'Activate' }).click();
  await page.getByRole('cell', { name: 'Active', exact: true }).waitFor();
  t.pass();
});

test.serial(
  'a legal hold is set: its history follows, the page offers no Delete and says why, and a delete is refused; the file is still there, byte for byte',
  async (t) => {
    t.truthy(shared, 'the share test ran first');
    const fileId = await fileIdOf('big-archive.bin');
    const remove = page.getByRole('button', { name: 'Delete', exact: true });
    t.is(await remove.count(), 1, 'Delete is offered while the file is not held');
    await page.getByRole('button', { name: 'Set legal hold' }).click();
    await page.getByRole('button', { name: 'Release legal hold' }).waitFor();
    await page.getByText('This file is under legal hold: it cannot be deleted').waitFor();
    // the history panel reads the hold's event without a reload
    await page.getByRole('region', { name: 'History' }).getByRole('cell', { name: 'Legal hold set', exact: true }).waitFor();
    const held = await api('GET', `/api/dms-file/${fileId}`, { token: user.token });
    t.is(held.body.legalHold, true, 'the hold is stored');
    t.is(await remove.count(), 0, 'no Delete button the service would refuse');
    // the service refuses it anyway: 409 SVC-SYS-4004 in the platform's words
    const refused = await api('DELETE', `/api/dms-file/${fileId}`, { token: user.token, headers: { 'if-match': `W/"${held.body.version}"` } });
    t.is(refused.status, 409, refused.text);
    t.is(refused.body.message, translate('en', 'file.legalHold'));
    await page.getByRole('heading', { level: 1, name: 'big-archive.bin' }).waitFor();

    // read back: the record unchanged (not deleted, same version), no DELETE audited, the same bytes
    const after = await api('GET', `/api/dms-file/${fileId}`, { token: user.token });
    t.is(after.status, 200, after.text);
    t.like(after.body, { legalHold: true, version: held.body.version, checksum: bigSha, fileSize: BIG });
    const [row] = await sql('select deleted from dms.dms_file where id = $1', [fileId]);
    t.is(row?.deleted, false, 'the row is not soft-deleted');
    const deletes = await sql(`select count(*)::int as n from dms.dms_audit_log where file_id = $1 and action = 'DELETE'`, [fileId]);
    t.is(deletes[0]?.n, 0, 'no DELETE was audited');
    const bytes = await fetch(`${platform.url}${after.body.downloadUrl}`);
    t.is(bytes.status, 200);
    t.is(
      createHash('sha256')
        .update(Buffer.from(await bytes.arrayBuffer()))
        .digest('hex'),
      bigSha,
      'the stored bytes are the uploaded ones',
    );
  },
);

test.serial('the audit log lists the actions by file name, a download as its user, and its chain verifies', async (t) => {
  await open('documents/audit', 'Audit log');
  await page.getByRole('cell', { name: 'Upload', exact: true }).first().waitFor();
  // a row names its file by its original name, a link to its page
  const bigId = await fileIdOf('big-archive.bin');
  t.true(
    (await page
      .locator(`a[href$="/documents/file/${bigId}"]`)
      .filter({ hasText: /^big-archive\.bin$/ })
      .count()) >= 1,
    'the file by its name',
  );
  // the user's own preview and download are theirs, not anonymous
  const [download] = await sql(`select user_code from dms.dms_audit_log where file_id = $1 and action = 'DOWNLOAD' order by id limit 1`, [bigId]);
  t.is(download?.user_code, user.userCode, 'the console’s download is audited as its user');
  t.true((await page.getByRole('cell', { name: 'Download by share link', exact: true }).count()) >= 1, 'the recipient’s download is audited');
  // the page's preview of the PNG: a download by its user, named as a preview and by the file's name
  const preview = page
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: 'Download (Preview)', exact: true }) })
    .filter({ has: page.getByRole('link', { name: 'pixel.png', exact: true }) });
  t.true((await preview.count()) >= 1, 'the preview is listed');
  t.is(await preview.first().getByRole('cell', { name: user.userCode, exact: true }).count(), 1, 'as its user, not anonymous');
  await page.getByRole('button', { name: 'Verify chain' }).click();
  await page.getByRole('status').filter({ hasText: 'The chain is intact' }).waitFor();
});

test.serial('an upload under way is cancelled and stores nothing; a refused type shows the platform’s message and stores nothing either', async (t) => {
  await open('documents', 'Documents');
  await page.getByRole('link', { name: 'big-archive.bin' }).waitFor();
  const before = await page.getByRole('table').getByRole('row').count();
  const stored = await storedState();
  // a slow line: 2 MB/s up, so the 50 MB upload is still running when Cancel is pressed
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 2 * 1024 * 1024 });
  try {
    await page.getByLabel('Choose files').setInputFiles(bigFile);
    await until(`(document.querySelector('progress')?.value ?? 0) > 0`);
    await page.getByRole('button', { name: 'Cancel: big-archive.bin' }).click();
    await page.getByRole('status').filter({ hasText: 'Cancelled' }).waitFor();
  } finally {
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await cdp.detach();
  }
  await page.reload();
  await page.getByRole('link', { name: 'big-archive.bin' }).waitFor();
  t.is(await page.getByRole('table').getByRole('row').count(), before, 'the page lists no new file');
  t.deepEqual(await storedState(), stored, 'the cancelled upload left no row, no UPLOAD audit row, no used bytes');

  // the tenant allows PNG only: a text file is 415, and the row says the platform's words
  await create('dms-account-config', { crProcessId, allowedMimeTypes: 'image/png' });
  await page.getByLabel('Choose files').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('plain words') });
  const refusal = page.getByRole('alert').filter({ hasText: /^Failed: / });
  await refusal.waitFor();
  // the 415 SVC-SYS-3002 message (libs/kit/src/i18n/messages.ts), after the console's own "Failed: "
  t.is(await refusal.textContent(), `Failed: ${translate('en', 'upload.typeNotAllowed')}`);
  await page.getByRole('button', { name: 'Retry: notes.txt' }).waitFor();
  t.deepEqual(await storedState(), stored, 'the refused upload stored nothing');
});

test.serial('a retention policy’s dry run, a record action, lists the files it would act on', async (t) => {
  const files = await api('POST', '/api/dms-file/list', { token: user.token, body: { page: 0, size: 50, searchTerm: 'pixel', filter: { crProcessId } } });
  const pixel = files.body.content.find((file: any) => file.originalFileName === 'pixel.png');
  await sql(`update dms.dms_file set upload_date = now() - interval '30 days' where id = $1`, [pixel.id]);
  const policy = await create('dms-retention-policy', { crProcessId, policyName: 'A week', retentionDays: 7 });
  await page.goto(`${platform.url}/console/dms-retention-policy/${policy.id}`);
  await page.getByRole('button', { name: 'Dry run' }).click();
  const dialog = page.getByRole('dialog', { name: 'What this policy would do now' });
  await dialog.getByRole('status').filter({ hasText: 'SOFT_DELETE would act on 1 files.' }).waitFor();
  await dialog.getByRole('link', { name: 'pixel.png' }).waitFor();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'hidden' });
  const still = await api('GET', `/api/dms-file/${pixel.id}`, { token: user.token });
  t.is(still.status, 200, 'a dry run changes nothing');
});
