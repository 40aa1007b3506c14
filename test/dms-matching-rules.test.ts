/**
 * Matching rules (docs/interface.md#matching-rules): the dms-matching-rule CRUD set and its checks,
 * each kind of match against a file's extracted text (words folded as the search folds them), a
 * REGEX rule held to its time limit, a category already set kept, and the re-apply's counts. Files
 * are uploaded through the gateway; their text is written beneath the API as the extraction writes
 * it (helpers/file-text.ts). Rules are applied by `POST /api/dms-matching-rule/apply`, which runs
 * applyMatchingRules on each file, as the extraction does once a file's text is saved.
 */
import test from 'ava';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createOrm } from '@platform/service-kit/db/orm.ts';
import { scopedFork } from '@platform/service-kit/db/tenant-scope.ts';
import { entities, migrationsDir } from '../dms-svc/src/db.ts';
import { applyMatchingRules } from '../dms-svc/src/matching/apply-rules.ts';
import { adminSession, create, createAccount, unique, userWithRoles } from './helpers/factories.ts';
import { assertErrorBody, assertInvalid } from './helpers/error-body.ts';
import { sql } from './helpers/db.ts';
import { setFileText, setFileTextPending, type TextLanguage } from './helpers/file-text.ts';
import { upload } from './helpers/files.ts';
import { logLinesWith } from './helpers/platform-log.ts';
import { api, platform } from './helpers/platform.ts';
import { until } from './helpers/until.ts';

const admin = async () => (await adminSession()).token;

/** dms-svc's entities on the platform's database, as the serving role: what the extraction worker calls applyMatchingRules with. */
let orm: MikroORM;
test.before(async () => {
  orm = await createOrm({ url: platform.env.DATABASE_URL!, schema: 'dms', entities, migrationsDir, poolSize: 2 });
});
test.after.always(async () => {
  await orm?.close();
});
const PATH = '/api/dms-matching-rule';

const applyRules = (crProcessId: number, token: string) => api('POST', `${PATH}/apply?crProcessId=${crProcessId}`, { token });
const category = (crProcessId: number, name = 'Category ') => create('dms-category', { crProcessId, categoryName: unique(name) });
const rule = (crProcessId: number, fields: Record<string, unknown>) => create('dms-matching-rule', { crProcessId, ruleName: unique('Rule '), ...fields });

/** A file uploaded through the gateway whose text is extracted as `content`. */
async function fileWithText(token: string, crProcessId: number, content: string, language: TextLanguage = 'english', fields: Record<string, string> = {}) {
  // bytes of no type dms-worker reads (SKIPPED): the worker never writes the text this test sets
  const res = await upload({ token, crProcessId, content: `bytes ${unique()}`, fileName: 'scan.bin', type: 'application/octet-stream', fields });
  if (res.status !== 200) throw new Error(`upload: ${res.status} ${res.text}`);
  const id = Number(res.body.fileId);
  await setFileText(id, crProcessId, content, language);
  return id;
}

const fileOf = async (id: number, token: string) => {
  const res = await api('GET', `/api/dms-file/${id}`, { token });
  if (res.status !== 200) throw new Error(`get file: ${res.status} ${res.text}`);
  return res.body;
};
const categoryOf = async (id: number, token: string): Promise<number | null> => (await fileOf(id, token)).categoryId ?? null;

test('CRUD through the gateway: ruleOrder defaults to 100 and status to true; update with version, stale 409; list by filters; stats; delete', async (t) => {
  const token = await admin();
  const { crProcessId } = await createAccount();
  const invoices = await category(crProcessId, 'Invoices ');
  const created = await api('POST', PATH, {
    token,
    body: { crProcessId, ruleName: 'Invoices', matchType: 'ANY', pattern: 'invoice fatura', categoryId: invoices.id },
  });
  t.is(created.status, 200, created.text);
  t.like(created.body, {
    crProcessId,
    ruleName: 'Invoices',
    matchType: 'ANY',
    pattern: 'invoice fatura',
    categoryId: invoices.id,
    ruleOrder: 100,
    status: true,
    version: 0,
  });
  const id = created.body.id;
  t.like((await api('GET', `${PATH}/${id}`, { token })).body, { id, ruleName: 'Invoices', ruleOrder: 100 });

  const updated = await api('PUT', `${PATH}/${id}`, { token, body: { version: 0, matchType: 'REGEX', pattern: '^inv-[0-9]{4}$', ruleOrder: 5 } });
  t.is(updated.status, 200, updated.text);
  t.like(updated.body, { version: 1, matchType: 'REGEX', pattern: '^inv-[0-9]{4}$', ruleOrder: 5 });
  assertErrorBody(t, await api('PUT', `${PATH}/${id}`, { token, body: { version: 0, ruleOrder: 6 } }), 409, 'SVC-SYS-4002');

  await rule(crProcessId, { matchType: 'PHRASE', pattern: 'terms of service', categoryId: (await category(crProcessId)).id, status: false });
  const listed = await api('POST', `${PATH}/list`, {
    token,
    body: { page: 0, size: 20, filter: { crProcessId, matchType: 'REGEX', categoryId: invoices.id } },
  });
  t.is(listed.status, 200, listed.text);
  t.deepEqual(
    listed.body.content.map((r: any) => r.id),
    [id],
  );
  const stats = await api('GET', `${PATH}/stats?crProcessId=${crProcessId}`, { token });
  t.deepEqual(stats.body, { totalCount: 2, activeCount: 1, passiveCount: 1 });

  // a category a rule names cannot be deleted while the rule stands (docs/interface.md: 409 SVC-SYS-4003)
  assertErrorBody(t, await api('DELETE', `/api/dms-category/${invoices.id}`, { token }), 409, 'SVC-SYS-4003');
  t.is((await api('DELETE', `${PATH}/${id}`, { token })).status, 204);
  assertErrorBody(t, await api('GET', `${PATH}/${id}`, { token }), 404, 'SVC-SYS-4001');
});

test('validation: required fields, the enum, 1000 characters of pattern, a unique ruleName (409 SVC-SYS-4005), a category of the tenant', async (t) => {
  const token = await admin();
  const { crProcessId } = await createAccount();
  const { crProcessId: other } = await createAccount();
  const own = await category(crProcessId);
  const foreign = await category(other);
  const body = { crProcessId, ruleName: unique('Rule '), matchType: 'ALL', pattern: 'lease agreement', categoryId: own.id };
  for (const field of ['ruleName', 'matchType', 'pattern', 'categoryId'] as const) {
    const { [field]: _left, ...rest } = body;
    assertInvalid(t, await api('POST', PATH, { token, body: rest }), field);
  }
  assertInvalid(t, await api('POST', PATH, { token, body: { ...body, matchType: 'FUZZY' } }), 'matchType');
  assertInvalid(t, await api('POST', PATH, { token, body: { ...body, pattern: 'x'.repeat(1001) } }), 'pattern');
  t.is((await api('POST', PATH, { token, body: { ...body, ruleName: unique('Long '), pattern: 'x'.repeat(1000) } })).status, 200);
  assertInvalid(t, await api('POST', PATH, { token, body: { ...body, categoryId: foreign.id } }), 'categoryId');

  t.is((await api('POST', PATH, { token, body })).status, 200);
  assertErrorBody(t, await api('POST', PATH, { token, body }), 409, 'SVC-SYS-4005');
  // another tenant may use the name
  t.is((await api('POST', PATH, { token, body: { ...body, crProcessId: other, categoryId: foreign.id } })).status, 200);
});

test('a REGEX pattern PostgreSQL cannot compile is 400 SVC-SYS-2001 on pattern, on create and on an update that makes a rule REGEX; in Turkish too', async (t) => {
  const token = await admin();
  const { crProcessId } = await createAccount();
  const cat = await category(crProcessId);
  const body = { crProcessId, ruleName: unique('Regex '), matchType: 'REGEX', pattern: 'inv(oice', categoryId: cat.id };
  const refused = await api('POST', PATH, { token, body });
  assertInvalid(t, refused, 'pattern');
  const turkish = await api('POST', PATH, { token, body, headers: { 'accept-language': 'tr' } });
  assertInvalid(t, turkish, 'pattern');
  t.regex(turkish.body.message, /düzenli ifade/);
  for (const pattern of ['[z-a]', 'a{2,1}', '*x']) assertInvalid(t, await api('POST', PATH, { token, body: { ...body, pattern } }), 'pattern');
  t.is((await sql('select count(*)::int as n from dms.dms_matching_rule where cr_process_id = $1', [crProcessId]))[0].n, 0);

  // the same words as ANY are no regular expression and pass; made REGEX later, they are checked
  const words = await rule(crProcessId, { matchType: 'ANY', pattern: 'inv(oice', categoryId: cat.id });
  assertInvalid(t, await api('PUT', `${PATH}/${words.id}`, { token, body: { version: 0, matchType: 'REGEX' } }), 'pattern');
  const fixed = await api('PUT', `${PATH}/${words.id}`, { token, body: { version: 0, matchType: 'REGEX', pattern: 'inv\\(oice' } });
  t.is(fixed.status, 200, fixed.text);
  // a REGEX rule's pattern changed alone is checked too
  assertInvalid(t, await api('PUT', `${PATH}/${words.id}`, { token, body: { version: 1, pattern: '(' } }), 'pattern');
  t.like((await api('GET', `${PATH}/${words.id}`, { token })).body, { version: 1, pattern: 'inv\\(oice' });
});

test("roles and tenants (decisions.md §2): read cannot write or apply; another tenant's rule is 404, its list, create and apply are 403 SVC-SYS-1003", async (t) => {
  const token = await admin();
  const mine = await createAccount();
  const theirs = await createAccount();
  const theirRule = await rule(theirs.crProcessId, { matchType: 'ANY', pattern: 'x', categoryId: (await category(theirs.crProcessId)).id });
  const writer = await userWithRoles(mine, ['dms-matching-rule:read', 'dms-matching-rule:write', 'dms-category:read']);
  const reader = await userWithRoles(mine, ['dms-matching-rule:read']);
  const own = await category(mine.crProcessId);

  // "get, update, delete or an operation on another tenant's record gets 404, as if it did not exist"
  assertErrorBody(t, await api('GET', `${PATH}/${theirRule.id}`, { token: writer.token }), 404, 'SVC-SYS-4001');
  assertErrorBody(t, await api('PUT', `${PATH}/${theirRule.id}`, { token: writer.token, body: { version: 0, pattern: 'y' } }), 404, 'SVC-SYS-4001');
  // "a create or list naming another tenant gets 403 SVC-SYS-1003"
  const list = await api('POST', `${PATH}/list`, { token: writer.token, body: { filter: { crProcessId: theirs.crProcessId } } });
  assertErrorBody(t, list, 403, 'SVC-SYS-1003');
  const body = { crProcessId: theirs.crProcessId, ruleName: unique('Foreign '), matchType: 'ANY', pattern: 'x', categoryId: own.id };
  assertErrorBody(t, await api('POST', PATH, { token: writer.token, body }), 403, 'SVC-SYS-1003');
  assertErrorBody(t, await applyRules(theirs.crProcessId, writer.token), 403, 'SVC-SYS-1003');
  t.is((await api('GET', `${PATH}/${theirRule.id}`, { token })).body.version, 0);

  const ownBody = { ...body, crProcessId: mine.crProcessId };
  assertErrorBody(t, await api('POST', PATH, { token: reader.token, body: ownBody }), 403, 'SVC-SYS-1003');
  assertErrorBody(t, await applyRules(mine.crProcessId, reader.token), 403, 'SVC-SYS-1003');
  t.is((await api('POST', PATH, { token: writer.token, body: ownBody })).status, 200);
  t.deepEqual((await applyRules(mine.crProcessId, writer.token)).body, { checked: 0, assigned: 0 });
  assertErrorBody(t, await api('POST', `${PATH}/apply`, { token: writer.token }), 400, 'SVC-SYS-2002');
});

test('each kind matches as the search does: ANY one word, ALL every word, PHRASE in order, REGEX case-insensitive, Turkish words folded', async (t) => {
  const token = await admin();
  const { crProcessId } = await createAccount();
  const [anyCat, allCat, phraseCat, regexCat, turkishCat] = await Promise.all(
    ['Any ', 'All ', 'Phrase ', 'Regex ', 'Turkish '].map((name) => category(crProcessId, name)),
  );
  const rules = {
    any: await rule(crProcessId, { matchType: 'ANY', pattern: '  receipt   invoices ', categoryId: anyCat.id, ruleOrder: 10 }),
    all: await rule(crProcessId, { matchType: 'ALL', pattern: 'quarterly budget report', categoryId: allCat.id, ruleOrder: 20 }),
    phrase: await rule(crProcessId, { matchType: 'PHRASE', pattern: 'terms of service', categoryId: phraseCat.id, ruleOrder: 30 }),
    regex: await rule(crProcessId, { matchType: 'REGEX', pattern: 'INV-[0-9]{4}\\M', categoryId: regexCat.id, ruleOrder: 40 }),
    turkish: await rule(crProcessId, { matchType: 'ANY', pattern: 'sozlesme', categoryId: turkishCat.id, ruleOrder: 50 }),
  };
  const files = {
    // "invoices" and "Invoice": one stem
    any: await fileWithText(token, crProcessId, 'Please pay the Invoice by Friday.'),
    all: await fileWithText(token, crProcessId, 'The Budget for the quarterly reports.'),
    allButOne: await fileWithText(token, crProcessId, 'The quarterly report, no money talk.'),
    phrase: await fileWithText(token, crProcessId, 'Read the Terms of Service carefully.'),
    phraseOutOfOrder: await fileWithText(token, crProcessId, 'Service terms of use.'),
    regex: await fileWithText(token, crProcessId, 'Reference inv-2024 enclosed.'),
    regexNot: await fileWithText(token, crProcessId, 'Reference inv-20245 enclosed.'),
    turkish: await fileWithText(token, crProcessId, 'Kira Sözleşme metni', 'turkish'),
    stopWords: await fileWithText(token, crProcessId, 'the of and'),
  };

  const applied = await applyRules(crProcessId, token);
  t.is(applied.status, 200, applied.text);
  t.deepEqual(applied.body, { checked: 9, assigned: 5 });
  t.is(await categoryOf(files.any, token), anyCat.id);
  t.is(await categoryOf(files.all, token), allCat.id);
  t.is(await categoryOf(files.allButOne, token), null);
  t.is(await categoryOf(files.phrase, token), phraseCat.id);
  t.is(await categoryOf(files.phraseOutOfOrder, token), null);
  t.is(await categoryOf(files.regex, token), regexCat.id);
  t.is(await categoryOf(files.regexNot, token), null);
  t.is(await categoryOf(files.turkish, token), turkishCat.id);
  t.is(await categoryOf(files.stopWords, token), null);

  // written as the category move writes it: version raised, svc:dms, a MOVE audit row naming the rule, dms-file.moved
  t.like(await fileOf(files.turkish, token), { version: 1, updatedBy: 'svc:dms' });
  const [audit] = await sql<{ user_code: string; details: string }>(`select user_code, details from dms.dms_audit_log where file_id = $1 and action = 'MOVE'`, [
    files.turkish,
  ]);
  t.is(audit?.user_code, 'svc:dms');
  t.deepEqual(JSON.parse(audit?.details ?? 'null'), { from: null, to: turkishCat.id, ruleId: rules.turkish.id });
  const events = await sql<{ type: string; version: number; actor: string }>(
    `select type, version, actor from dms.dms_outbox where entity = 'dms-file' and entity_key = $1 and type = 'dms-file.moved'`,
    [String(files.turkish)],
  );
  t.deepEqual(
    events.map((e) => [e.type, e.version, e.actor]),
    [['dms-file.moved', 1, 'svc:dms']],
  );
  t.true((await api('GET', `/api/dms-audit-log/verify?crProcessId=${crProcessId}`, { token })).body.intact);
});

test('the first active rule by ruleOrder, then id, applies; a passive rule never does', async (t) => {
  const token = await admin();
  const { crProcessId } = await createAccount();
  const [passive, later, first, tie] = await Promise.all(['Passive ', 'Later ', 'First ', 'Tie '].map((name) => category(crProcessId, name)));
  await rule(crProcessId, { matchType: 'ANY', pattern: 'contract', categoryId: passive.id, ruleOrder: 1, status: false });
  await rule(crProcessId, { matchType: 'ANY', pattern: 'contract', categoryId: later.id, ruleOrder: 100 });
  await rule(crProcessId, { matchType: 'ALL', pattern: 'signed contract', categoryId: first.id, ruleOrder: 50 });
  await rule(crProcessId, { matchType: 'ANY', pattern: 'contract', categoryId: tie.id, ruleOrder: 100 });
  const signed = await fileWithText(token, crProcessId, 'The signed contract.');
  const plain = await fileWithText(token, crProcessId, 'A contract draft.');
  t.deepEqual((await applyRules(crProcessId, token)).body, { checked: 2, assigned: 2 });
  t.is(await categoryOf(signed, token), first.id);
  // two rules of order 100: the lower id
  t.is(await categoryOf(plain, token), later.id);
});

test('a REGEX rule past DMS_MATCHING_REGEX_TIMEOUT_MS is skipped for the file and logged, and the next rule still applies', async (t) => {
  const token = await admin();
  const { crProcessId } = await createAccount();
  const [slow, harmless, words] = await Promise.all(['Slow ', 'Harmless ', 'Words '].map((name) => category(crProcessId, name)));
  // (a+)+$ backtracks badly in engines that backtrack; PostgreSQL's answers it at once (no match
  // here). A back reference makes PostgreSQL's own engine backtrack: (.*)\1$ over this text runs
  // for seconds.
  const slowRule = await rule(crProcessId, { matchType: 'REGEX', pattern: '(.*)\\1$', categoryId: slow.id, ruleOrder: 1 });
  await rule(crProcessId, { matchType: 'REGEX', pattern: '(a+)+$', categoryId: harmless.id, ruleOrder: 2 });
  const wordRule = await rule(crProcessId, { matchType: 'ANY', pattern: 'invoice', categoryId: words.id, ruleOrder: 3 });
  const file = await fileWithText(token, crProcessId, `${'a'.repeat(20_000)}b invoice`);

  const started = Date.now();
  const applied = await applyRules(crProcessId, token);
  const took = Date.now() - started;
  t.deepEqual(applied.body, { checked: 1, assigned: 1 });
  t.is(await categoryOf(file, token), words.id);
  // it waited for the limit (1000 ms by default), and no longer than the limit and some
  t.true(took >= 900 && took < 8000, `took ${took} ms`);
  const [audit] = await sql<{ details: string }>(`select details from dms.dms_audit_log where file_id = $1 and action = 'MOVE'`, [file]);
  t.is(JSON.parse(audit?.details ?? '{}').ruleId, wordRule.id);
  const skippedLine = async () =>
    (await logLinesWith('matching rule skipped for a file')).find((line) => line.entry.fileId === file && line.entry.ruleId === slowRule.id);
  await until('the skip logged', 5000, async () => (await skippedLine()) !== undefined);
  const skipped = await skippedLine();
  t.is(skipped?.source, 'dms-svc');
  t.is(skipped?.entry.sqlState, '57014');
});

test('a category already set is kept; deleted files and files whose text is not extracted are not looked at; apply again finds only what is left', async (t) => {
  const token = await admin();
  const { crProcessId } = await createAccount();
  const [chosen, ruled, moved] = await Promise.all(['Chosen ', 'Ruled ', 'Moved '].map((name) => category(crProcessId, name)));
  await rule(crProcessId, { matchType: 'PHRASE', pattern: 'purchase order', categoryId: ruled.id });
  const text = 'Purchase order 42';
  const kept = await fileWithText(token, crProcessId, text, 'english', { categoryId: String(chosen.id) });
  const open = await fileWithText(token, crProcessId, text);
  const deleted = await fileWithText(token, crProcessId, text);
  t.is((await api('DELETE', `/api/dms-file/${deleted}`, { token })).status, 204);
  const pending = await fileWithText(token, crProcessId, text);
  await setFileTextPending(pending, crProcessId);
  const noText = await upload({ token, crProcessId, content: `bytes ${unique()}`, fileName: 'none.bin', type: 'application/octet-stream' });
  const unmatched = await fileWithText(token, crProcessId, 'Nothing to see');

  t.deepEqual((await applyRules(crProcessId, token)).body, { checked: 2, assigned: 1 });
  t.like(await fileOf(kept, token), { categoryId: chosen.id, version: 0 });
  t.is(await categoryOf(open, token), ruled.id);
  t.is(await categoryOf(pending, token), null);
  t.is(await categoryOf(Number(noText.body.fileId), token), null);
  t.is(await categoryOf(unmatched, token), null);
  t.is((await sql('select category_id from dms.dms_file where id = $1', [deleted]))[0].category_id, null);

  // a person moves the file the rule filed; applying again changes nothing of it
  const move = await api('PUT', `/api/dms-file/${open}/category?categoryId=${moved.id}`, { token });
  t.is(move.status, 200, move.text);
  await setFileText(pending, crProcessId, text);
  t.deepEqual((await applyRules(crProcessId, token)).body, { checked: 2, assigned: 1 });
  t.is(await categoryOf(open, token), moved.id);
  t.is(await categoryOf(pending, token), ruled.id);
  t.deepEqual((await applyRules(crProcessId, token)).body, { checked: 1, assigned: 0 });
});

test("applyMatchingRules as the extraction calls it, in the tenant's scope: one call; never a category already set, a deleted file or another tenant's; a savepoint of the caller's transaction", async (t) => {
  const token = await admin();
  const { crProcessId } = await createAccount();
  const { crProcessId: other } = await createAccount();
  const [chosen, ruled] = await Promise.all(['Chosen ', 'Ruled '].map((name) => category(crProcessId, name)));
  const waybills = await rule(crProcessId, { matchType: 'ANY', pattern: 'waybill', categoryId: ruled.id });
  const text = 'Waybill 7 of the shipment';
  const filed = await fileWithText(token, crProcessId, text);
  const byPerson = await fileWithText(token, crProcessId, text, 'english', { categoryId: String(chosen.id) });
  const deleted = await fileWithText(token, crProcessId, text);
  t.is((await api('DELETE', `/api/dms-file/${deleted}`, { token })).status, 204);
  const rolledBack = await fileWithText(token, crProcessId, text);
  const scoped = () => scopedFork(orm, { tenants: [crProcessId] });

  t.is(await applyMatchingRules(scoped(), { fileId: filed, crProcessId }), waybills.id);
  t.like(await fileOf(filed, token), { categoryId: ruled.id, version: 1, updatedBy: 'svc:dms' });
  // once filed, a second call changes nothing
  t.is(await applyMatchingRules(scoped(), { fileId: filed, crProcessId }), null);
  t.is(await applyMatchingRules(scoped(), { fileId: byPerson, crProcessId }), null);
  t.like(await fileOf(byPerson, token), { categoryId: chosen.id, version: 0 });
  t.is(await applyMatchingRules(scoped(), { fileId: deleted, crProcessId }), null);
  t.is((await sql('select category_id from dms.dms_file where id = $1', [deleted]))[0].category_id, null);
  // another tenant's scope sees neither the file nor the rules (row-level security)
  t.is(await applyMatchingRules(scopedFork(orm, { tenants: [other] }), { fileId: rolledBack, crProcessId }), null);
  // in the caller's transaction: undone with it
  await t.throwsAsync(
    scoped().transactional(async (tx) => {
      t.is(await applyMatchingRules(tx, { fileId: rolledBack, crProcessId }), waybills.id);
      throw new Error('the caller fails');
    }),
    { message: 'the caller fails' },
  );
  t.is(await categoryOf(rolledBack, token), null);
  t.is((await sql(`select count(*)::int as n from dms.dms_audit_log where file_id = $1 and action = 'MOVE'`, [rolledBack]))[0].n, 0);
});
