/**
 * Idempotent creates and uploads (docs/interface.md#idempotent-requests): "POST creates and uploads
 * honour `Idempotency-Key` for 24 h per user: the same key and body give the first answer again
 * without a second write, the same key with another body 422 with the error body, concurrent
 * retries with one key give exactly one write", over HTTP against the real platform, for resources
 * of each service and for the upload.
 */
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { canonicalJson } from '@platform/service-kit/idempotency/fingerprint.ts';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { createAccount, createPartner, freshTenant, unique, userWithRoles, adminSession } from './helpers/factories.ts';
import { api, platform, type ApiResponse } from './helpers/platform.ts';
import { createOrm } from '@platform/service-kit/db/orm.ts';
import { sweepExpiredKeys } from '@platform/service-kit/idempotency/idempotency-sweep.ts';
import { entities, migrationsDir, SCHEMA } from '../bpm-svc/src/db.ts';
import { sql } from './helpers/db.ts';
import { assertErrorBody, assertInvalid } from './helpers/error-body.ts';
import { storageDir, upload } from './helpers/files.ts';
import { offers } from '@platform/kit/resource/resource.ts';
import { registry } from '../gateway/src/registry.ts';

/** A resource of each service: a fresh create body, and how its rows with one body's marker are counted. */
interface Case {
  path: string;
  schema: 'core' | 'bpm' | 'dms';
  /** A create body whose `marker` field is unique to it. */
  body(crProcessId: number): Promise<Record<string, unknown>>;
  table: string;
  column: string;
  marker: string;
}

const CASES: Case[] = [
  {
    path: 'branch',
    schema: 'bpm',
    body: async (crProcessId) => ({ crProcessId, businessPartnerId: (await createPartner(crProcessId)).id, branchName: 'Keyed', branchCode: unique('B-') }),
    table: 'bpm.branch',
    column: 'branch_code',
    marker: 'branchCode',
  },
  {
    path: 'user-info',
    schema: 'core',
    body: async (crProcessId) => ({ crProcessId, userCode: unique('idem-'), userDescription: 'Keyed user', password: 'keyed-password-1' }),
    table: 'core.user_info',
    column: 'user_code',
    marker: 'userCode',
  },
  {
    path: 'dms-category',
    schema: 'dms',
    body: async (crProcessId) => ({ crProcessId, categoryName: unique('Keyed category '), description: 'Keyed' }),
    table: 'dms.dms_category',
    column: 'category_name',
    marker: 'categoryName',
  },
];

const [branch, , category] = CASES as [Case, Case, Case];

function post(path: string, token: string, body: unknown, key?: string): Promise<ApiResponse> {
  return api('POST', `/api/${path}`, { token, body, headers: key === undefined ? {} : { 'idempotency-key': key } });
}

async function rowsOf(c: Case, body: Record<string, unknown>): Promise<number> {
  const [row] = await sql<{ n: string }>(`select count(*) as n from ${c.table} where ${c.column} = $1`, [body[c.marker]]);
  return Number(row?.n);
}

async function keyRows(schema: string, key: string): Promise<number> {
  const [row] = await sql<{ n: string }>(`select count(*) as n from ${schema}.${schema}_idempotency where idempotency_key = $1`, [key]);
  return Number(row?.n);
}

for (const c of CASES) {
  test(`${c.path}: the same key and body twice give the first answer again and write one row`, async (t) => {
    const { token } = await adminSession();
    const body = await c.body(freshTenant());
    const key = randomUUID();
    const first = await post(c.path, token, body, key);
    t.is(first.status, 200, first.text);
    const again = await post(c.path, token, body, key);
    t.is(again.status, 200, again.text);
    t.deepEqual(again.body, first.body);
    t.is(first.headers.get('idempotent-replayed'), null);
    t.is(again.headers.get('idempotent-replayed'), 'true');
    t.is(await rowsOf(c, body), 1);
    t.is(await keyRows(c.schema, key), 1);
    const [events] = await sql<{ n: string }>(`select count(*) as n from ${c.schema}.${c.schema}_outbox where entity = $1 and entity_key = $2`, [
      c.path,
      String(first.body.id),
    ]);
    t.is(Number(events?.n), 1, 'one created event');
  });

  test(`${c.path}: the same key with another body is 422 SVC-SYS-2001 with the error body, and writes nothing`, async (t) => {
    const { token } = await adminSession();
    const tenant = freshTenant();
    const key = randomUUID();
    const first = await post(c.path, token, await c.body(tenant), key);
    t.is(first.status, 200, first.text);
    const other = await c.body(tenant);
    const refused = await post(c.path, token, other, key);
    assertErrorBody(t, refused, 422, 'SVC-SYS-2001');
    t.is(await rowsOf(c, other), 0);
  });

  test(`${c.path}: 8 concurrent requests with one key all answer the one record, written once`, async (t) => {
    const { token } = await adminSession();
    const body = await c.body(freshTenant());
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(c.path, token, body, key)));
    for (const answer of answers) t.is(answer.status, 200, answer.text);
    t.is(new Set(answers.map((answer) => JSON.stringify(answer.body))).size, 1);
    t.is(answers.filter((answer) => answer.headers.get('idempotent-replayed') === 'true').length, 7);
    t.is(await rowsOf(c, body), 1);
  });
}

test('the same key on a create of another resource of the service is another request: 422', async (t) => {
  const { token } = await adminSession();
  const crProcessId = freshTenant();
  const key = randomUUID();
  const category = await post('dms-category', token, { crProcessId, categoryName: unique('Keyed ') }, key);
  t.is(category.status, 200, category.text);
  const policy = { crProcessId, policyName: 'Keyed policy', retentionDays: 30, categoryId: category.body.id, entityType: 'contract', action: 'PURGE' };
  assertErrorBody(t, await post('dms-retention-policy', token, policy, key), 422, 'SVC-SYS-2001');
  t.is((await post('dms-retention-policy', token, policy)).status, 200);
});

test('keys are per user: another user with the same key writes its own record', async (t) => {
  const { token } = await adminSession();
  const account = await createAccount();
  const user = await userWithRoles(account, ['dms-category:read', 'dms-category:write']);
  const key = randomUUID();
  const mine = await post('dms-category', token, { crProcessId: account.crProcessId, categoryName: unique('Admin ') }, key);
  t.is(mine.status, 200, mine.text);
  const theirs = await post('dms-category', user.token, { crProcessId: account.crProcessId, categoryName: unique('User ') }, key);
  t.is(theirs.status, 200, theirs.text);
  t.not(theirs.body.id, mine.body.id);
  t.is(await keyRows('dms', key), 2);
});

test('a key whose create failed (400) can be used again, and then writes', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const key = randomUUID();
  const body = await branch.body(tenant);
  // refused inside the create's transaction: the partner does not exist
  const failed = await post('branch', token, { ...body, businessPartnerId: 2 ** 40 }, key);
  assertErrorBody(t, failed, 400, 'SVC-SYS-2001');
  t.is(await keyRows('bpm', key), 0);
  const written = await post('branch', token, body, key);
  t.is(written.status, 200, written.text);
  t.is(await rowsOf(branch, body), 1);
});

test('a key older than 24 hours is forgotten: a request under it is a new write', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const key = randomUUID();
  const first = await post('branch', token, await branch.body(tenant), key);
  t.is(first.status, 200, first.text);
  await sql(`update bpm.bpm_idempotency set created_at = created_at - interval '24 hours 1 second' where idempotency_key = $1`, [key]);
  const other = await branch.body(tenant);
  const second = await post('branch', token, other, key);
  t.is(second.status, 200, second.text);
  t.is(second.headers.get('idempotent-replayed'), null);
  t.not(second.body.id, first.body.id);
  t.is(await rowsOf(branch, other), 1);
  t.is(await keyRows('bpm', key), 1);
});

test('a key just under 24 hours old is still honoured', async (t) => {
  const { token } = await adminSession();
  const body = await branch.body(freshTenant());
  const key = randomUUID();
  const first = await post('branch', token, body, key);
  await sql(`update bpm.bpm_idempotency set created_at = created_at - interval '23 hours 59 minutes' where idempotency_key = $1`, [key]);
  const again = await post('branch', token, body, key);
  t.deepEqual(again.body, first.body);
  t.is(await rowsOf(branch, body), 1);
});

test('a malformed key is 400 SVC-SYS-2001 naming the header, and writes nothing', async (t) => {
  const { token } = await adminSession();
  for (const key of ['', 'k'.repeat(256), 'cl\u00e9', 'tab\there']) {
    const body = await category.body(freshTenant());
    const res = await post('dms-category', token, body, key);
    assertInvalid(t, res, 'Idempotency-Key');
    t.is(await rowsOf(category, body), 0, JSON.stringify(key));
  }
  const longest = await post('dms-category', token, await category.body(freshTenant()), `${'k'.repeat(254)}~`);
  t.is(longest.status, 200, longest.text);
});

test('other POSTs ignore the header: a list with a key is answered as without one', async (t) => {
  const { token } = await adminSession();
  const res = await api('POST', '/api/dms-category/list', { token, body: { filter: { crProcessId: freshTenant() } }, headers: { 'idempotency-key': '' } });
  t.is(res.status, 200, res.text);
});

/**
 * Files in the storage directory holding exactly `content`: stored ones, and temporary upload files
 * (by content too: other test files upload into the same directory at the same time).
 */
async function stored(content: string): Promise<{ copies: number; temporary: number }> {
  const want = createHash('sha256').update(content).digest('hex');
  let copies = 0;
  let temporary = 0;
  for (const name of await readdir(storageDir())) {
    const upload = name.startsWith('.upload-');
    if (name.startsWith('.') && !upload) continue;
    const bytes = await readFile(join(storageDir(), name)).catch(() => undefined);
    if (!bytes || createHash('sha256').update(bytes).digest('hex') !== want) continue;
    if (upload) temporary++;
    else copies++;
  }
  return { copies, temporary };
}

async function fileRows(crProcessId: number): Promise<number> {
  const [row] = await sql<{ n: string }>('select count(*) as n from dms.dms_file where cr_process_id = $1', [crProcessId]);
  return Number(row?.n);
}

test.serial('upload: the same key and file twice store one file and give the first answer again', async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const content = `idempotent upload ${randomUUID()}`;
  const key = randomUUID();
  const send = () => upload({ token, crProcessId, content, fileName: 'keyed.txt', fields: { description: 'keyed' }, headers: { 'idempotency-key': key } });
  const first = await send();
  t.is(first.status, 200, first.text);
  const again = await send();
  t.is(again.status, 200, again.text);
  t.deepEqual(again.body, first.body);
  t.is(first.headers.get('idempotent-replayed'), null);
  t.is(again.headers.get('idempotent-replayed'), 'true');
  t.is(await fileRows(crProcessId), 1);
  t.deepEqual(await stored(content), { copies: 1, temporary: 0 });
});

test.serial('upload: concurrent uploads with one key store one file', async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const content = `concurrent upload ${randomUUID()}`;
  const key = randomUUID();
  const answers = await Promise.all(Array.from({ length: 4 }, () => upload({ token, crProcessId, content, headers: { 'idempotency-key': key } })));
  for (const answer of answers) t.is(answer.status, 200, answer.text);
  t.is(new Set(answers.map((answer) => answer.body.fileId)).size, 1);
  t.is(answers.filter((answer) => answer.headers.get('idempotent-replayed') === 'true').length, 3);
  t.is(await fileRows(crProcessId), 1);
  t.deepEqual(await stored(content), { copies: 1, temporary: 0 });
});

test.serial('upload: another file or other fields under the key are 422 and keep no bytes', async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const key = randomUUID();
  const headers = { 'idempotency-key': key };
  const firstContent = `first ${randomUUID()}`;
  const first = await upload({ token, crProcessId, content: firstContent, headers });
  t.is(first.status, 200, first.text);
  const content = `second ${randomUUID()}`;
  assertErrorBody(t, await upload({ token, crProcessId, content, headers }), 422, 'SVC-SYS-2001');
  t.deepEqual(await stored(content), { copies: 0, temporary: 0 });
  const sameBytes = await upload({ token, crProcessId, content: firstContent, fields: { description: 'other' }, headers });
  assertErrorBody(t, sameBytes, 422, 'SVC-SYS-2001');
  t.is(await fileRows(crProcessId), 1);
  t.deepEqual(await stored(firstContent), { copies: 1, temporary: 0 });
});

test('upload: a malformed key is 400 SVC-SYS-2001 naming the header', async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const res = await upload({ token, crProcessId, content: 'x', headers: { 'idempotency-key': 'k'.repeat(256) } });
  assertInvalid(t, res, 'Idempotency-Key');
  t.is(await fileRows(crProcessId), 0);
});

test("the API document declares Idempotency-Key and the 422 on every create, the upload and the resumable upload's creation, and nowhere else", async (t) => {
  const doc = (await api('GET', '/api/docs/openapi.json')).body;
  t.is(doc.components.parameters.IdempotencyKey.name, 'Idempotency-Key');
  t.deepEqual(doc.components.responses.UnprocessableContent.content['application/json'].schema.allOf[1].properties.error_code.enum, ['SVC-SYS-2001']);
  const keyed: string[] = [];
  for (const [path, operations] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, operation] of Object.entries<any>(operations)) {
      const hasKey = (operation.parameters ?? []).some((parameter: any) => parameter.$ref === '#/components/parameters/IdempotencyKey');
      t.is(hasKey, operation.responses?.['422'] !== undefined, `${method} ${path}`);
      if (hasKey) keyed.push(`${method} ${path}`);
      if (hasKey) t.truthy((operation.responses['200'] ?? operation.responses['201']).headers?.['Idempotent-Replayed'], `${method} ${path}`);
    }
  }
  const creates = registry.filter((resource) => offers(resource, 'create')).map((resource) => `post /api/${resource.path}`);
  t.deepEqual(keyed.sort(), [...creates, 'post /api/dms-file/upload', 'post /api/dms-file/tus'].sort());
});

test('the sweep deletes the keys older than 24 hours and keeps the others', async (t) => {
  const { token } = await adminSession();
  const [old, young] = [randomUUID(), randomUUID()];
  for (const key of [old, young]) t.is((await post('branch', token, await branch.body(freshTenant()), key)).status, 200);
  await sql(`update bpm.bpm_idempotency set created_at = created_at - interval '24 hours' where idempotency_key = $1`, [old]);
  const orm = await createOrm({ url: platform.databaseUrl, schema: SCHEMA, entities, migrationsDir, poolSize: 1 });
  try {
    t.true((await sweepExpiredKeys(orm.em.fork())) >= 1);
  } finally {
    await orm.close();
  }
  t.is(await keyRows('bpm', old), 0);
  t.is(await keyRows('bpm', young), 1);
});

test('the same fields in another order are the same request', async (t) => {
  const { token } = await adminSession();
  const body = await branch.body(freshTenant());
  const key = randomUUID();
  const first = await post('branch', token, body, key);
  t.is(first.status, 200, first.text);
  const reordered = Object.fromEntries(Object.entries(body).reverse());
  const again = await post('branch', token, reordered, key);
  t.is(again.status, 200, again.text);
  t.is(again.body.id, first.body.id);
  t.is(again.headers.get('idempotent-replayed'), 'true');
});

test('a fingerprint is keyed: a password in the request is not kept as a plain hash', async (t) => {
  const { token } = await adminSession();
  const body = await CASES[1]!.body(freshTenant());
  const key = randomUUID();
  t.is((await post('user-info', token, body, key)).status, 200);
  const [row] = await sql<{ fingerprint: string }>('select fingerprint from core.core_idempotency where idempotency_key = $1', [key]);
  const canonical = canonicalJson({ operation: 'user-info.create', request: body });
  t.not(row?.fingerprint, createHash('sha256').update(canonical).digest('hex'));
  const fingerprintKey = createHmac('sha256', platform.jwtSecret).update('platform idempotency fingerprint').digest();
  t.is(row?.fingerprint, createHmac('sha256', fingerprintKey).update(canonical).digest('hex'));
});
