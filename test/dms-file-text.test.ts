/**
 * Documents found by their words (issue 43, docs/adr/0159-documents-found-by-their-words.md): after
 * every upload dms-worker reads the file's text (poppler's text layer, Tesseract's OCR in English and
 * Turkish) and `GET /api/dms-file/search` finds the file by it, "its answer stays file records, with a
 * rank and a snippet added". Generated documents only, made here (helpers/documents.ts): a PDF with a
 * text layer, the same page as a PNG and as an image-only PDF; and the hostile ones, each of which
 * "end[s] as a failed extraction with a reason while uploads keep being answered".
 */
import test from 'ava';
import { sql } from './helpers/db.ts';
import { assertErrorBody } from './helpers/error-body.ts';
import { bombPdf, hugePng, imagePdf, malformedPdf, manyPagesPdf, renderedPng, textPdf } from './helpers/documents.ts';
import { upload } from './helpers/files.ts';
import { adminSession, create, createAccount, unique, userWithRoles, type TenantUser } from './helpers/factories.ts';
import { api } from './helpers/platform.ts';
import './helpers/text-tools.ts';
import { until } from './helpers/until.ts';
import { finishedText as finishedTextOf } from './helpers/file-text.ts';
import { runRetention } from './helpers/retention.ts';

const ROLES = ['dms-file:read', 'dms-file:write', 'dms-file:delete'];
const LINES = ['Service Agreement', 'The warehouse invoice is attached.', 'Bu sözleşme iki taraf arasında imzalanmıştır.', 'Kira sözleşmesi ve teslimat'];

/** A user of a tenant of its own, holding ROLES there. */
type Member = TenantUser & { crProcessId: number };
let owner: Member;
let other: Member;

async function member(): Promise<Member> {
  const account = await createAccount();
  return { ...(await userWithRoles(account, ROLES)), crProcessId: account.crProcessId };
}
const files: Record<'layer' | 'png' | 'scan', number> = { layer: 0, png: 0, scan: 0 };

async function uploaded(user: Member, content: Uint8Array, fileName: string, type: string, fields: Record<string, string> = {}): Promise<number> {
  const answer = await upload({ token: user.token, crProcessId: user.crProcessId, content, fileName, type, fields });
  if (answer.status !== 200) throw new Error(`upload of ${fileName}: ${answer.status} ${answer.text}`);
  return answer.body.fileId as number;
}

const finishedText = (user: Member, fileId: number) => finishedTextOf(user.token, fileId);

async function search(user: Member, term: string, crProcessId = user.crProcessId): Promise<any> {
  return api('GET', `/api/dms-file/search?crProcessId=${crProcessId}&searchTerm=${encodeURIComponent(term)}`, { token: user.token });
}

test.before(async () => {
  owner = await member();
  other = await member();
  const pdf = await textPdf(LINES);
  const png = await renderedPng(pdf);
  files.layer = await uploaded(owner, pdf, 'agreement.pdf', 'application/pdf');
  files.png = await uploaded(owner, png, 'agreement.png', 'image/png');
  files.scan = await uploaded(owner, await imagePdf(png), 'agreement-scan.pdf', 'application/pdf');
  // the other tenant has the same words: never found by the owner, nor its files by the owner's words
  await uploaded(other, pdf, 'theirs.pdf', 'application/pdf');
});

test.serial('each document is read: the text layer by pdftotext, the PNG and the scan by OCR', async (t) => {
  const layer = await finishedText(owner, files.layer);
  t.is(layer.status, 'DONE', JSON.stringify(layer));
  t.is(layer.method, 'text-layer');
  t.is(layer.pages, 1);
  t.true(layer.text.includes('sözleşme'), layer.text);
  for (const id of [files.png, files.scan]) {
    const read = await finishedText(owner, id);
    t.is(read.status, 'DONE', JSON.stringify(read).slice(0, 400));
    t.is(read.method, 'ocr');
    t.regex(read.text, /warehouse/i);
  }
});

for (const [what, term] of [
  ['an English word', 'warehouse'],
  ['a Turkish word with its diacritics', 'sözleşme'],
  ['the Turkish word folded', 'sozlesme'],
  ['a part of a word (trigram)', 'arehou'],
] as const) {
  test.serial(`all three are found by ${what}, ranked, with a snippet that marks it`, async (t) => {
    const found = await search(owner, term);
    t.is(found.status, 200, found.text);
    const ids = found.body.map((file: any) => file.id);
    for (const [kind, id] of Object.entries(files)) t.true(ids.includes(id), `the ${kind} file is found by "${term}": ${JSON.stringify(ids)}`);
    const hit = found.body.find((file: any) => file.id === files.layer);
    t.regex(hit.searchRank, /^\d+(\.\d+)?$/);
    t.true(Number(hit.searchRank) > 0);
    t.regex(hit.searchSnippet, /<mark>[^<]+<\/mark>/, 'the words found are marked');
    t.false(/<(?!\/?mark>)/.test(hit.searchSnippet), 'nothing but <mark> is markup');
  });
}

test.serial("another tenant's words are never found, and its files never named", async (t) => {
  const mine = await search(owner, 'warehouse');
  const theirs = await search(other, 'warehouse');
  t.is(theirs.status, 200);
  t.true(theirs.body.length >= 1);
  const ownIds = new Set(mine.body.map((file: any) => file.id));
  t.false(
    theirs.body.some((file: any) => ownIds.has(file.id)),
    'no file of the owner in the other tenant’s answer',
  );
  t.true(theirs.body.every((file: any) => file.crProcessId === other.crProcessId));
  // decisions.md §2: "A create or list naming another tenant gets 403 SVC-SYS-1003"
  assertErrorBody(t, await search(other, 'warehouse', owner.crProcessId), 403, 'SVC-SYS-1003');
});

test.serial('the search narrows by type and upload date', async (t) => {
  const images = await api('GET', `/api/dms-file/search?crProcessId=${owner.crProcessId}&searchTerm=warehouse&mimeType=image%2Fpng`, { token: owner.token });
  t.deepEqual(
    images.body.map((file: any) => file.id),
    [files.png],
  );
  const future = await api('GET', `/api/dms-file/search?crProcessId=${owner.crProcessId}&searchTerm=warehouse&uploadedFrom=2999-01-01T00:00:00Z`, {
    token: owner.token,
  });
  t.deepEqual(future.body, []);
  const wrong = await api('GET', `/api/dms-file/search?crProcessId=${owner.crProcessId}&searchTerm=warehouse&uploadedFrom=yesterday`, { token: owner.token });
  t.is(wrong.status, 400, wrong.text);
});

test.serial('hostile files each end FAILED with a reason, while uploads keep being answered', async (t) => {
  t.timeout(300_000);
  const hostile = {
    malformed: await uploaded(owner, malformedPdf(), 'broken.pdf', 'application/pdf'),
    pages: await uploaded(owner, await manyPagesPdf(10_000), 'ten-thousand.pdf', 'application/pdf'),
    pixels: await uploaded(owner, await hugePng(50_000, 50_000), 'huge.png', 'image/png'),
    bomb: await uploaded(owner, await bombPdf(60_000), 'bomb.pdf', 'application/pdf'),
  };
  // an upload while they are read is answered as ever
  const started = performance.now();
  await uploaded(owner, new TextEncoder().encode('a plain note about the warehouse'), 'note.txt', 'text/plain');
  t.true(performance.now() - started < 5_000, 'an upload is answered within seconds');
  const reasons: Record<string, RegExp> = {
    malformed: /pdf|PDF/,
    pages: /10000 pages, more than the limit/,
    pixels: /50000 × 50000 pixels/,
    bomb: /an image on page 1 is 60000 × 60000 pixels/,
  };
  for (const [kind, id] of Object.entries(hostile)) {
    const read = await finishedText(owner, id);
    t.is(read.status, 'FAILED', `${kind}: ${JSON.stringify(read).slice(0, 300)}`);
    t.regex(read.reason ?? '', reasons[kind]!, `${kind}'s reason`);
    t.is(read.text, null);
  }
});

test.serial("a deleted file's words leave the index", async (t) => {
  const id = await uploaded(owner, await textPdf(['Quarterly zephyrine ledger']), 'ledger.pdf', 'application/pdf');
  t.is((await finishedText(owner, id)).status, 'DONE');
  t.true((await search(owner, 'zephyrine')).body.some((file: any) => file.id === id));
  t.is((await api('DELETE', `/api/dms-file/${id}`, { token: owner.token })).status, 204);
  t.deepEqual((await search(owner, 'zephyrine')).body, []);
  const rows = await sql<{ n: string }>('select count(*) as n from dms.dms_file_text where file_id = $1', [id]);
  t.is(Number(rows[0]?.n), 0, 'its text row is gone');
});

test.serial("a text too short to tell its language is indexed in the tenant's (dms-account-config textLanguage), else DMS_TEXT_LANGUAGE", async (t) => {
  t.is(
    (await api('POST', '/api/dms-account-config', { token: (await adminSession()).token, body: { crProcessId: owner.crProcessId, textLanguage: 'turkish' } }))
      .status,
    200,
  );
  const short = new TextEncoder().encode('Kira');
  const own = await finishedText(owner, await uploaded(owner, short, 'short.txt', 'text/plain'));
  t.like(own, { status: 'DONE', method: 'plain', language: 'turkish' });
  const theirs = await finishedText(other, await uploaded(other, short, 'short.txt', 'text/plain'));
  t.like(theirs, { status: 'DONE', language: 'english' });
});

test.serial('a matching rule files a document by the words read from it (the worker applies it after extraction)', async (t) => {
  const contracts = await create('dms-category', { crProcessId: owner.crProcessId, categoryName: unique('Contracts ') });
  await create('dms-matching-rule', {
    crProcessId: owner.crProcessId,
    ruleName: unique('Rule '),
    matchType: 'ANY',
    pattern: 'sozlesme kontrat',
    categoryId: contracts.id,
  });
  const id = await uploaded(owner, await textPdf(['Bu sözleşme Kadıköy şubesi içindir']), 'kira.pdf', 'application/pdf');
  t.is((await finishedText(owner, id)).status, 'DONE');
  let record: any;
  await until('the rule to file the document', 30_000, async () => {
    record = (await api('GET', `/api/dms-file/${id}`, { token: owner.token })).body;
    return record.categoryId === contracts.id;
  });
  t.is(record.categoryId, contracts.id);
});

test.serial("a user without read on a category finds nothing of it by its words (decisions.md §2's roles, the category's readRole)", async (t) => {
  const admin = await adminSession();
  const secret = await create('dms-category', { crProcessId: owner.crProcessId, categoryName: unique('Board '), readRole: 'board:read' });
  const form = {
    token: admin.token,
    crProcessId: owner.crProcessId,
    fileName: 'minutes.pdf',
    type: 'application/pdf',
    fields: { categoryId: String(secret.id) },
  };
  const hidden = await upload({ ...form, content: await textPdf(['Board minutes: quorvantine merger']) });
  t.is(hidden.status, 200, hidden.text);
  t.is((await finishedTextOf(admin.token, hidden.body.fileId)).status, 'DONE');
  t.deepEqual((await search(owner, 'quorvantine')).body, [], 'the owner lacks board:read: nothing of the category is found');
  const asAdmin = await api('GET', `/api/dms-file/search?crProcessId=${owner.crProcessId}&searchTerm=quorvantine`, { token: admin.token });
  t.deepEqual(
    asAdmin.body.map((file: any) => file.id),
    [hidden.body.fileId],
    'a super user finds it',
  );
});

test.serial("a purged file's words are gone: retention's PURGE takes its text row and its matches", async (t) => {
  const id = await uploaded(owner, await textPdf(['Archived velmorant tender']), 'tender.pdf', 'application/pdf', { entityType: 'TENDER' });
  t.is((await finishedText(owner, id)).status, 'DONE');
  t.true((await search(owner, 'velmorant')).body.some((file: any) => file.id === id));
  await sql(`update dms.dms_file set upload_date = now() - interval '30 days' where id = $1`, [id]);
  await create('dms-retention-policy', {
    crProcessId: owner.crProcessId,
    policyName: unique('Tenders '),
    retentionDays: 10,
    entityType: 'TENDER',
    action: 'PURGE',
  });
  t.like(await runRetention(owner.crProcessId), { purgedByPolicy: 1 });
  t.deepEqual((await search(owner, 'velmorant')).body, []);
  t.deepEqual(await sql('select file_id from dms.dms_file_text where file_id = $1', [id]), []);
});

test.serial('a file is read again on request; one not found is 404', async (t) => {
  const again = await api('POST', `/api/dms-file/${files.layer}/text/extract`, { token: owner.token });
  t.is(again.status, 200, again.text);
  t.true(['PENDING', 'RUNNING', 'DONE'].includes(again.body.status));
  t.is((await finishedText(owner, files.layer)).status, 'DONE');
  t.is((await api('GET', `/api/dms-file/${files.layer}/text`, { token: other.token })).status, 404, "another tenant's file is not found");
});
