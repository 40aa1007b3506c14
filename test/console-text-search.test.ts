/**
 * Documents found by their words, in the console (issue 43: "in the console (a search page with
 * snippets; a file's page says whether its text was read and shows it)"), in a real Chromium through
 * the real gateway: documents generated here (helpers/documents.ts; "generated documents only")
 * are uploaded and read by dms-worker; the search page (menu "Search documents") finds them by an
 * English word and by a Turkish one typed without its letters ("sozlesme" finds "sözleşme"), each
 * with its passage and the words found marked, and a passage that holds markup shows it as text;
 * the filters narrow it, an empty answer and a refused search each say so; a file's page says
 * whether its text was read (DONE, FAILED and SKIPPED with their reasons), shows the text (a long one
 * in part, then whole) and reads it again for a user who may write. In Turkish once, on a phone
 * (390×844) once; axe finds no serious or critical violation. Screenshots: test-output/console/text-*.png.
 */
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { SESSION_COOKIE } from '@platform/kit/auth/request-token.ts';
import { seriousViolations } from './helpers/axe.ts';
import { launchChromium } from './helpers/chromium.ts';
import { consoleUrl, screenshot, scriptErrorWatch } from './helpers/console.ts';
import { malformedPdf, textPdf } from './helpers/documents.ts';
import { upload } from './helpers/files.ts';
import { create, createAccount, userWithRoles, type TenantUser } from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';
import './helpers/text-tools.ts';
import { finishedText as finishedTextOf } from './helpers/file-text.ts';

const ROLES = ['dms-category:read', 'dms-category:write', 'dms-file:read', 'dms-file:write'];
const PHONE = { width: 390, height: 844 };
/** A text longer than the file page shows at first (file-text.view.tsx SHOWN_FIRST: 50,000). */
const LONG_LINES = 4_000;
const LONG_LINE = (i: number) => `line ${String(i).padStart(5, '0')} of the long ledger\n`;

let browser: Browser;
let user: TenantUser;
let reader: TenantUser;
let crProcessId: number;
const ids = { agreement: 0, kira: 0, notes: 0, long: 0, broken: 0, binary: 0 };
const { errors: scriptErrors, watch } = scriptErrorWatch();

async function uploaded(content: Uint8Array | string, fileName: string, type: string, fields: Record<string, string> = {}): Promise<number> {
  const answer = await upload({ token: user.token, crProcessId, content, fileName, type, fields });
  if (answer.status !== 200) throw new Error(`upload of ${fileName}: ${answer.status} ${answer.text}`);
  return answer.body.fileId as number;
}

const finishedText = (fileId: number) => finishedTextOf(user.token, fileId);

test.before(async () => {
  const account = await createAccount();
  crProcessId = account.crProcessId;
  user = await userWithRoles(account, ROLES);
  reader = await userWithRoles(account, ['dms-category:read', 'dms-file:read']);
  const contracts = await create('dms-category', { crProcessId, categoryName: 'Contracts' }, user.token);
  ids.agreement = await uploaded(await textPdf(['Service Agreement', 'The warehouse invoice is attached.']), 'agreement.pdf', 'application/pdf', {
    categoryId: String(contracts.id),
  });
  ids.kira = await uploaded(await textPdf(['Kira sözleşmesi', 'Bu sözleşme iki taraf arasında imzalanmıştır.']), 'kira.pdf', 'application/pdf');
  // a passage that holds markup and the five characters the service escapes: shown as text, never as markup
  ids.notes = await uploaded('Delivery notes: warehouse <img src=x onerror=alert(1)> & "quoted" \'words\' > end', 'notes.txt', 'text/plain');
  ids.long = await uploaded(Array.from({ length: LONG_LINES }, (_, i) => LONG_LINE(i + 1)).join(''), 'ledger.txt', 'text/plain');
  ids.broken = await uploaded(malformedPdf(), 'broken.pdf', 'application/pdf');
  ids.binary = await uploaded(new Uint8Array([0, 1, 2, 3, 254, 255, 0, 7]), 'blob.bin', 'application/octet-stream');
  const done = await Promise.all(Object.values(ids).map(finishedText));
  const statuses = Object.fromEntries(Object.keys(ids).map((name, i) => [name, done[i].status]));
  // the documents the pages show, as the service read them (dms-file-text.test.ts tests the reading)
  if (JSON.stringify(statuses) !== JSON.stringify({ agreement: 'DONE', kira: 'DONE', notes: 'DONE', long: 'DONE', broken: 'FAILED', binary: 'SKIPPED' })) {
    throw new Error(`the documents were not read as expected: ${JSON.stringify(statuses)}`);
  }
  browser = await launchChromium();
});

test.after.always(async () => {
  await browser?.close();
});

/** A page of its own context at `viewport`, logged in as `who` by its session cookie, at `path`. */
async function opened(path: string, viewport = { width: 1280, height: 900 }, who: TenantUser = user): Promise<Page> {
  const context = await browser.newContext({ viewport });
  await context.addCookies([{ name: SESSION_COOKIE, value: who.token, url: platform.url }]);
  const page = watch(await context.newPage());
  await page.goto(consoleUrl(path));
  return page;
}

const hit = (page: Page, name: string) => page.locator('.doc-hit', { has: page.getByRole('link', { name, exact: true }) });
const form = (page: Page, name = 'Search documents') => page.getByRole('search', { name });

/** Whether the page is no wider than its window (nothing to scroll sideways). */
async function fitsWidth(page: Page): Promise<{ document: number; window: number }> {
  return (await page.evaluate('({ document: document.documentElement.scrollWidth, window: window.innerWidth })')) as { document: number; window: number };
}

test.serial('the menu leads to the search, which finds a document by an English word, the word marked', async (t) => {
  const page = await opened('/documents');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search documents' }).click();
  await page.getByRole('heading', { level: 1, name: 'Search documents' }).waitFor();
  const menu = page.getByRole('navigation', { name: 'Main' });
  t.is(await menu.getByRole('link', { name: 'Search documents' }).getAttribute('aria-current'), 'page');
  t.is(await menu.getByRole('link', { name: 'Documents', exact: true }).getAttribute('aria-current'), null, 'one entry is current, the deeper one');
  t.is(await page.getByRole('status').filter({ hasText: 'Type words' }).count(), 1, 'before a search the page says what to do');
  await form(page).getByLabel('Words').fill('warehouse');
  await form(page).getByLabel('Words').press('Enter');
  await hit(page, 'agreement.pdf').waitFor();
  t.regex(page.url(), /\/console\/documents\/search\?q=warehouse$/, 'the search is in the address');

  const agreement = hit(page, 'agreement.pdf');
  t.deepEqual(await agreement.locator('mark').allTextContents(), ['warehouse'], 'the word found is marked');
  t.regex((await agreement.locator('.doc-snippet').textContent()) ?? '', /The warehouse invoice is attached/);
  t.regex((await agreement.locator('dl').textContent()) ?? '', /CategoryContracts/, 'its category by name');
  const today = new Date();
  const day = `${String(today.getDate()).padStart(2, '0')}/${String(today.getMonth() + 1).padStart(2, '0')}/${today.getFullYear()}`;
  t.true(((await agreement.locator('dl').textContent()) ?? '').includes(`Uploaded${day}`), 'its upload date');
  t.is(await agreement.getByRole('link', { name: 'agreement.pdf' }).getAttribute('href'), `/console/documents/file/${ids.agreement}`);

  // the service escaped the passage's markup; the page shows it as the characters it is
  const notes = hit(page, 'notes.txt');
  t.deepEqual(await notes.locator('mark').allTextContents(), ['warehouse']);
  t.regex((await notes.locator('.doc-snippet').textContent()) ?? '', /warehouse <img src=x onerror=alert\(1\)> & "quoted" 'words/);
  t.is(await page.locator('.doc-hits img').count(), 0, 'no element made of the passage');
  t.is(await page.locator('.doc-snippet *:not(mark):not(span)').count(), 0, 'only text and marks');
  t.is(await page.getByRole('status').filter({ hasText: '2 files found.' }).count(), 1);
  t.deepEqual(await seriousViolations(page), [], 'axe on the results');
  await screenshot(page, 'text-search-desktop');
  await page.context().close();
});

test.serial('the keyboard alone searches and opens a file, whose page says its text was read and shows it', async (t) => {
  const page = await opened('/documents/search');
  await page.getByRole('heading', { level: 1, name: 'Search documents' }).waitFor();
  await form(page).getByLabel('Words').focus();
  await page.keyboard.type('invoice');
  await page.keyboard.press('Enter');
  await hit(page, 'agreement.pdf').waitFor();
  let presses = 0;
  while ((await page.evaluate('document.activeElement?.textContent')) !== 'agreement.pdf') {
    if (++presses > 20) throw new Error('Tab never reached the file found');
    await page.keyboard.press('Tab');
  }
  await page.keyboard.press('Enter');
  await page.waitForURL(`**/console/documents/file/${ids.agreement}`);
  await page.getByRole('heading', { level: 1, name: 'agreement.pdf' }).waitFor();
  t.is(
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Documents', exact: true }).getAttribute('aria-current'),
    'page',
    'a file’s page is under Documents',
  );

  const panel = page.locator('section', { has: page.getByRole('heading', { level: 2, name: 'Text', exact: true }) });
  await panel.getByText('The text was read.').waitFor();
  const facts = (await panel.locator('dl').textContent()) ?? '';
  t.true(facts.includes('Read fromthe PDF’s text layer'), facts);
  t.true(facts.includes('Pages1'), facts);
  t.regex(facts, /Words indexed as(English|Turkish)/);
  const box = panel.getByRole('region', { name: 'Text of agreement.pdf' });
  t.regex((await box.textContent()) ?? '', /Service Agreement\s+The warehouse invoice is attached\./);
  t.is(await box.getAttribute('tabindex'), '0', 'the text box is reached by the keyboard');
  t.truthy(await panel.getByRole('button', { name: 'Read again' }).count());
  t.deepEqual(await seriousViolations(page), [], 'axe on the file page');
  await screenshot(page, 'text-file');
  await page.context().close();
});

test.serial('in Turkish, "sozlesme" finds "sözleşme", marked, and the file page speaks Turkish', async (t) => {
  const page = await opened('/documents');
  await page.getByLabel('Language').selectOption('tr');
  await page.getByRole('link', { name: 'Belge ara' }).click();
  await page.getByRole('heading', { level: 1, name: 'Belge ara' }).waitFor();
  t.truthy(await page.getByText('“sozlesme” yazınca “sözleşme” de bulunur').count(), 'the hint says letters may be left out');
  await form(page, 'Belge ara').getByLabel('Sözcükler').fill('sozlesme');
  await form(page, 'Belge ara').getByRole('button', { name: 'Ara', exact: true }).click();
  const kira = hit(page, 'kira.pdf');
  await kira.waitFor();
  const marks = await kira.locator('mark').allTextContents();
  t.true(marks.length >= 1, 'a word is marked');
  for (const mark of marks) t.regex(mark, /^sözleşme/i, `the marked word is the Turkish one: ${marks.join(', ')}`);
  t.regex((await kira.locator('dl').textContent()) ?? '', /KategoriKategorisiz/);
  t.is(await page.getByRole('status').filter({ hasText: '1 dosya bulundu.' }).count(), 1, 'only the Turkish document');
  t.deepEqual(await seriousViolations(page), [], 'axe in Turkish');
  await screenshot(page, 'text-search-turkish');

  await kira.getByRole('link', { name: 'kira.pdf' }).click();
  const panel = page.locator('section', { has: page.getByRole('heading', { level: 2, name: 'Metin', exact: true }) });
  await panel.getByText('Metin okundu.').waitFor();
  t.true(((await panel.locator('dl').textContent()) ?? '').includes('Okunduğu yerPDF’in metin katmanı'));
  t.regex((await panel.getByRole('region', { name: 'kira.pdf metni' }).textContent()) ?? '', /Bu sözleşme iki taraf arasında imzalanmıştır\./);
  t.truthy(await panel.getByRole('button', { name: 'Yeniden oku' }).count());
  await page.context().close();
});

test.serial('the filters narrow the search; none found and a refused search each say so', async (t) => {
  const page = await opened('/documents/search');
  const words = form(page).getByLabel('Words');
  await words.fill('warehouse');
  const names = async () => page.locator('.doc-hit h3').allTextContents();
  const searched = async (expected: string) => {
    await form(page).getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('status').filter({ hasText: expected }).waitFor();
  };

  await form(page).getByLabel('Type').selectOption({ label: 'PDF' });
  await searched('1 file found.');
  t.deepEqual(await names(), ['agreement.pdf'], 'by type');
  t.true(page.url().includes('type=application%2Fpdf'));
  await form(page).getByLabel('Type').selectOption({ label: 'Any type' });
  await form(page).getByLabel('Category').selectOption({ label: 'Contracts' });
  await searched('1 file found.');
  t.deepEqual(await names(), ['agreement.pdf'], 'by category');
  await form(page).getByLabel('Category').selectOption({ label: 'Any category' });
  await form(page).getByLabel('Uploaded by (user code)').fill(user.userCode);
  await searched('2 files found.');
  t.deepEqual((await names()).sort(), ['agreement.pdf', 'notes.txt'], 'by uploader');

  // an upload day after today: the empty state names the words
  const tomorrow = new Date(Date.now() + 86_400_000);
  await form(page)
    .getByLabel('Uploaded from')
    .fill(`${tomorrow.getDate()}/${tomorrow.getMonth() + 1}/${tomorrow.getFullYear()}`);
  await searched('No file matches “warehouse”.');
  t.deepEqual(await names(), []);
  await form(page).getByLabel('Uploaded from').fill('');
  await form(page)
    .getByLabel('Uploaded to')
    .fill(`${new Date().getDate()}/${new Date().getMonth() + 1}/${new Date().getFullYear()}`);
  await searched('2 files found.');
  t.pass('up to today includes today');

  // the service refuses an uploader longer than a user code (100 characters): the page says why
  await form(page).getByLabel('Uploaded by (user code)').fill('u'.repeat(101));
  await form(page).getByRole('button', { name: 'Search', exact: true }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'The search failed' });
  await alert.waitFor();
  t.regex((await alert.textContent()) ?? '', /createdBy/i, 'the field refused is named');
  t.deepEqual(await names(), []);
  await screenshot(page, 'text-search-refused');

  await form(page).getByRole('button', { name: 'Clear' }).click();
  t.is(await words.inputValue(), '');
  t.is(await form(page).getByLabel('Uploaded by (user code)').inputValue(), '');
  await page.getByRole('status').filter({ hasText: 'Type words' }).waitFor();
  t.is(await page.getByRole('alert').count(), 0);
  await page.context().close();
});

test.serial('a file whose text failed or was skipped says why; "Read again" reads a file anew', async (t) => {
  const page = await opened(`/documents/file/${ids.broken}`);
  const panel = page.locator('section', { has: page.getByRole('heading', { level: 2, name: 'Text', exact: true }) });
  await panel.getByText('The text could not be read.').waitFor();
  const broken = await finishedText(ids.broken);
  t.truthy(broken.reason);
  t.true(((await panel.locator('.doc-text-reason').textContent()) ?? '').includes(`Why: ${broken.reason}`));
  t.is(await panel.getByRole('region').count(), 0, 'no text shown');

  await page.goto(consoleUrl(`/documents/file/${ids.binary}`));
  await panel.getByText('The text of this type of file is not read.').waitFor();
  t.regex((await panel.locator('.doc-text-reason').textContent()) ?? '', /^Why: files of type application\/octet-stream are not read/);

  const before = await finishedText(ids.kira);
  await page.goto(consoleUrl(`/documents/file/${ids.kira}`));
  await panel.getByText('The text was read.').waitFor();
  await panel.getByRole('button', { name: 'Read again' }).click();
  await panel.getByRole('status').filter({ hasText: 'The text will be read again.' }).waitFor();
  t.is(await panel.locator('.doc-text-status').getAttribute('data-status'), 'PENDING', 'the answer of the extract: the file waits');
  t.is(await panel.getByRole('region').count(), 0, 'no old text while it waits');
  // the panel asks again until the new run ends, then shows the text it read
  await panel.getByText('The text was read.').waitFor({ timeout: 60_000 });
  t.regex((await panel.getByRole('region', { name: 'Text of kira.pdf' }).textContent()) ?? '', /Kira sözleşmesi/);
  const again = await finishedText(ids.kira);
  t.true(Date.parse(again.finishedAt) > Date.parse(before.finishedAt), `read anew: ${before.finishedAt} then ${again.finishedAt}`);
  await page.context().close();

  // a user who may only read is shown the text and offered no reading
  const readerPage = await opened(`/documents/file/${ids.kira}`, undefined, reader);
  await readerPage.getByText('The text was read.').waitFor();
  t.is(await readerPage.getByRole('button', { name: 'Read again' }).count(), 0);
  const refused = await api('POST', `/api/dms-file/${ids.kira}/text/extract`, { token: reader.token });
  t.is(refused.status, 403, 'the service refuses it too');
  await readerPage.context().close();
});

test.serial('a long text shows its first part in a box that scrolls, then all of it', async (t) => {
  const page = await opened(`/documents/file/${ids.long}`);
  const total = LONG_LINES * LONG_LINE(1).length;
  await page.getByText(`Showing the first 50,000 of ${total.toLocaleString('en')} characters.`).waitFor();
  const box = page.getByRole('region', { name: 'Text of ledger.txt' });
  t.is(((await box.textContent()) ?? '').length, 50_000);
  const sizes = await box.evaluate((element: any) => ({ scroll: element.scrollHeight as number, client: element.clientHeight as number }));
  t.true(sizes.scroll > sizes.client * 10, `the box scrolls: ${JSON.stringify(sizes)}`);
  const height = (await page.evaluate('document.documentElement.scrollHeight')) as number;
  t.true(height < 4_000, `the page stays short: ${height} px`);
  await page.getByRole('button', { name: 'Show all the text' }).click();
  t.is(((await box.textContent()) ?? '').length, total);
  t.true(((await box.textContent()) ?? '').endsWith(LONG_LINE(LONG_LINES)));
  await page.context().close();
});

test.serial('on a phone the search and a file page stay within the screen, and axe finds nothing serious', async (t) => {
  const page = await opened('/documents/search?q=warehouse', PHONE);
  await hit(page, 'agreement.pdf').waitFor();
  const search = await fitsWidth(page);
  t.true(search.document <= search.window, `search: document ${search.document} px in a ${search.window} px window`);
  t.deepEqual(await seriousViolations(page), [], 'axe on the search');
  await screenshot(page, 'text-search-phone');

  await hit(page, 'notes.txt').getByRole('link').click();
  await page.getByText('The text was read.').waitFor();
  const file = await fitsWidth(page);
  t.true(file.document <= file.window, `file page: document ${file.document} px in a ${file.window} px window`);
  t.deepEqual(await seriousViolations(page), [], 'axe on the file page');
  await screenshot(page, 'text-file-phone');
  await page.context().close();
});

test.serial('no page script failed or was refused', (t) => {
  t.deepEqual(scriptErrors, []);
});
