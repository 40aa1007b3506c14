/**
 * Retention (docs/interface.md#retention-and-audit, docs/interface.md#records): active policies soft-delete or purge their tenant's old files of
 * their category and entity type, soft-deleted files are purged after purgeAfterDays, every action is
 * audited once, runs at once never act twice, and the dry run lists exactly what a run then does.
 * Files are made old by setting their dates in the database; a run is RunDmsRetention (internal).
 */
import test from 'ava';
import { status, type ServiceError } from '@grpc/grpc-js';
import { adminSession, create, createAccount, userWithRoles } from './helpers/factories.ts';
import { storedBytesExist, upload } from './helpers/files.ts';
import { sql } from './helpers/db.ts';
import { api } from './helpers/platform.ts';
import { runRetention } from './helpers/retention.ts';

const admin = async () => (await adminSession()).token;

async function file(
  token: string,
  crProcessId: number,
  fields: Record<string, string> = {},
  name = 'kept.txt',
): Promise<{ id: number; stored: string; name: string }> {
  const res = await upload({ token, crProcessId, content: `retention ${Math.random()}`, fileName: name, fields });
  if (res.status !== 200) throw new Error(`upload: ${res.status} ${res.text}`);
  return { id: res.body.fileId, stored: res.body.storedFileName, name };
}

async function age(ids: number[], days: number): Promise<void> {
  await sql(`update dms.dms_file set upload_date = now() - make_interval(days => $2) where id = any($1::bigint[])`, [ids, days]);
}

const auditOf = (crProcessId: number) =>
  sql<{ action: string; file_id: string; user_code: string; details: string }>(
    `select action, file_id, user_code, details from dms.dms_audit_log where cr_process_id = $1 and action in ('RETENTION_SOFT_DELETE', 'RETENTION_PURGE', 'PURGE') order by id`,
    [crProcessId],
  );
/** A record's events in the dms outbox (docs/adr/0077-events-domain-moves-and-history.md): type, version, actor. */
const eventsOf = async (entity: string, key: number) =>
  (
    await sql<{ type: string; version: number | null; actor: string }>(
      `select type, version, actor from dms.dms_outbox where entity = $1 and entity_key = $2 order by seq`,
      [entity, String(key)],
    )
  ).map((event) => [event.type, event.version, event.actor]);
const verify = async (crProcessId: number, token: string) => (await api('GET', `/api/dms-audit-log/verify?crProcessId=${crProcessId}`, { token })).body;
const dryRun = async (id: number, token: string) => api('GET', `/api/dms-retention-policy/${id}/dry-run`, { token });

test("SOFT_DELETE applies to old live files of the policy's category and entity type only; the dry run lists exactly those; audited once, chain intact", async (t) => {
  const token = await admin();
  const { crProcessId } = await createAccount();
  const category = await create('dms-category', { crProcessId, categoryName: 'Invoices' });
  const other = await create('dms-category', { crProcessId, categoryName: 'Other' });
  const match = { categoryId: String(category.id), entityType: 'INVOICE' };
  const hit = await file(token, crProcessId, match, 'old-invoice.txt');
  const hit2 = await file(token, crProcessId, match, 'older-invoice.txt');
  const wrongType = await file(token, crProcessId, { ...match, entityType: 'ORDER' });
  const wrongCategory = await file(token, crProcessId, { ...match, categoryId: String(other.id) });
  const noCategory = await file(token, crProcessId, { entityType: 'INVOICE' });
  const young = await file(token, crProcessId, match);
  await age([hit.id, wrongType.id, wrongCategory.id, noCategory.id], 31);
  await age([hit2.id], 400);
  await age([young.id], 29);
  const policy = await create('dms-retention-policy', {
    crProcessId,
    policyName: 'Invoices 30d',
    retentionDays: 30,
    ...match,
    categoryId: category.id,
    action: 'SOFT_DELETE',
  });
  const passive = await create('dms-retention-policy', { crProcessId, policyName: 'Passive', retentionDays: 1, action: 'PURGE', status: false });

  const dry = await dryRun(policy.id, token);
  t.is(dry.status, 200);
  t.is(dry.body.policyId, policy.id);
  t.is(dry.body.action, 'SOFT_DELETE');
  t.is(dry.body.count, 2);
  t.deepEqual(
    dry.body.files.map((f: any) => [f.fileId, f.originalFileName]),
    [
      [hit.id, hit.name],
      [hit2.id, hit2.name],
    ],
  );
  t.regex(dry.body.files[0].uploadDate, /^\d{4}-\d\d-\d\dT.*Z$/);
  t.is((await dryRun(passive.id, token)).body.count, 6, "a passive policy's dry run shows what it would do; the run leaves it out");

  t.deepEqual(await runRetention(crProcessId), { softDeleted: 2, purgedByPolicy: 0, purged: 0 });
  for (const gone of [hit, hit2]) {
    t.is((await api('GET', `/api/dms-file/${gone.id}`, { token })).status, 404);
    t.true(await storedBytesExist(gone.stored), 'a soft delete keeps the bytes');
  }
  for (const kept of [wrongType, wrongCategory, noCategory, young]) t.is((await api('GET', `/api/dms-file/${kept.id}`, { token })).status, 200);
  const [row] = await sql('select deleted, version, updated_by from dms.dms_file where id = $1', [hit.id]);
  t.like(row, { deleted: true, version: 1, updated_by: 'svc:dms' });
  t.deepEqual(await eventsOf('dms-file', hit.id), [
    ['dms-file.uploaded', 0, 'admin'],
    ['dms-file.deleted', 1, 'svc:dms'],
  ]);
  const audit = await auditOf(crProcessId);
  t.deepEqual(
    audit.map((a) => [a.action, Number(a.file_id), a.user_code]),
    [
      ['RETENTION_SOFT_DELETE', hit.id, 'svc:dms'],
      ['RETENTION_SOFT_DELETE', hit2.id, 'svc:dms'],
    ],
  );
  t.like(JSON.parse(audit[0]?.details ?? '{}'), { policyId: policy.id });
  t.is((await dryRun(policy.id, token)).body.count, 0, 'nothing is left to do');
  t.deepEqual(await runRetention(crProcessId), { softDeleted: 0, purgedByPolicy: 0, purged: 0 });
  t.is((await auditOf(crProcessId)).length, 2);
  t.like(await verify(crProcessId, token), { intact: true, firstBrokenId: null });
});

test("PURGE removes the old files' rows, bytes and share links; a younger file and other tenants are untouched; audited as RETENTION_PURGE", async (t) => {
  const token = await admin();
  const { crProcessId } = await createAccount();
  const neighbour = await createAccount();
  const old = await file(token, crProcessId, { entityType: 'CONTRACT' });
  const fresh = await file(token, crProcessId, { entityType: 'CONTRACT' });
  const elsewhere = await file(token, neighbour.crProcessId, { entityType: 'CONTRACT' });
  await age([old.id, elsewhere.id], 11);
  await age([fresh.id], 9);
  const link = await create('dms-share-link', { crProcessId, fileId: old.id });
  const policy = await create('dms-retention-policy', { crProcessId, policyName: 'Contracts 10d', retentionDays: 10, entityType: 'CONTRACT', action: 'PURGE' });
  const dry = await dryRun(policy.id, token);
  t.deepEqual(
    dry.body.files.map((f: any) => f.fileId),
    [old.id],
  );
  t.is(dry.body.action, 'PURGE');

  t.deepEqual(await runRetention(crProcessId), { softDeleted: 0, purgedByPolicy: 1, purged: 0 });
  t.deepEqual(await sql('select id from dms.dms_file where id = $1', [old.id]), []);
  t.false(await storedBytesExist(old.stored), 'the bytes are gone from the storage');
  t.deepEqual(await sql('select id from dms.dms_share_link where id = $1', [link.id]), []);
  t.deepEqual(await eventsOf('dms-file', old.id), [
    ['dms-file.uploaded', 0, 'admin'],
    ['dms-file.purged', 0, 'svc:dms'],
  ]);
  t.deepEqual(await eventsOf('dms-share-link', link.id), [
    ['dms-share-link.created', 0, 'admin'],
    ['dms-share-link.deleted', 0, 'svc:dms'],
  ]);
  t.true(await storedBytesExist(fresh.stored));
  t.true(await storedBytesExist(elsewhere.stored), "another tenant's old file is not this policy's");
  t.is((await api('GET', `/api/dms-file/${elsewhere.id}`, { token })).status, 200);
  const audit = await auditOf(crProcessId);
  t.deepEqual(
    audit.map((a) => [a.action, Number(a.file_id)]),
    [['RETENTION_PURGE', old.id]],
  );
  t.deepEqual(JSON.parse(audit[0]?.details ?? '{}'), { policyId: policy.id, originalFileName: old.name, shareLinkIds: [link.id] });
  t.like(await verify(crProcessId, token), { intact: true });
});

test("soft-deleted files are purged once deleted longer than the tenant's purgeAfterDays ago, and not before", async (t) => {
  const token = await admin();
  const { crProcessId } = await createAccount();
  await create('dms-account-config', { crProcessId, purgeAfterDays: 7 });
  const [longGone, recentlyGone, live] = [await file(token, crProcessId), await file(token, crProcessId), await file(token, crProcessId)];
  for (const f of [longGone, recentlyGone]) t.is((await api('DELETE', `/api/dms-file/${f.id}`, { token })).status, 204);
  await sql(`update dms.dms_file set updated_at = now() - interval '8 days' where id = $1`, [longGone.id]);
  await sql(`update dms.dms_file set updated_at = now() - interval '6 days' where id = $1`, [recentlyGone.id]);
  await age([live.id], 3650);

  t.deepEqual(await runRetention(crProcessId), { softDeleted: 0, purgedByPolicy: 0, purged: 1 });
  t.deepEqual(await sql('select id from dms.dms_file where id = $1', [longGone.id]), []);
  t.false(await storedBytesExist(longGone.stored));
  t.deepEqual(await sql('select deleted from dms.dms_file where id = $1', [recentlyGone.id]), [{ deleted: true }]);
  t.true(await storedBytesExist(recentlyGone.stored));
  t.is((await api('GET', `/api/dms-file/${live.id}`, { token })).status, 200, 'a live file with no policy is never purged');
  const audit = await auditOf(crProcessId);
  t.deepEqual(
    audit.map((a) => [a.action, Number(a.file_id)]),
    [['PURGE', longGone.id]],
  );
  t.like(JSON.parse(audit[0]?.details ?? '{}'), { purgeAfterDays: 7 });
  t.like(await verify(crProcessId, token), { intact: true });
});

test('three runs at once (over more than one batch) act on each file exactly once: one audit row per file, all bytes gone, chain intact', async (t) => {
  const token = await admin();
  const { crProcessId } = await createAccount();
  const files: Awaited<ReturnType<typeof file>>[] = [];
  for (let i = 0; i < 150; i += 15) files.push(...(await Promise.all(Array.from({ length: 15 }, () => file(token, crProcessId, { entityType: 'BULK' })))));
  await age(
    files.map((f) => f.id),
    100,
  );
  const policy = await create('dms-retention-policy', { crProcessId, policyName: 'Bulk', retentionDays: 30, entityType: 'BULK', action: 'PURGE' });
  const dry = await dryRun(policy.id, token);
  t.is(dry.body.count, 150);
  t.deepEqual(
    dry.body.files.map((f: any) => f.fileId),
    files.map((f) => f.id).sort((a, b) => a - b),
  );

  const runs = await Promise.all([runRetention(crProcessId), runRetention(crProcessId), runRetention(crProcessId)]);
  t.is(
    runs.reduce((sum, run) => sum + run.purgedByPolicy, 0),
    150,
  );
  const audit = await auditOf(crProcessId);
  t.is(audit.length, 150);
  t.deepEqual(
    audit.map((a) => Number(a.file_id)).sort((a, b) => a - b),
    dry.body.files.map((f: any) => f.fileId),
  );
  t.deepEqual(await sql('select id from dms.dms_file where cr_process_id = $1', [crProcessId]), []);
  t.is((await Promise.all(files.map((f) => storedBytesExist(f.stored)))).filter(Boolean).length, 0);
  // the tenant's chain: 150 UPLOAD rows, then exactly one RETENTION_PURGE row per file
  t.like(await verify(crProcessId, token), { intact: true, checked: 300 });
});

test("the dry run needs dms-retention-policy:read and the policy's tenant; RunDmsRetention serves only the internal credential", async (t) => {
  const account = await createAccount();
  const policy = await create('dms-retention-policy', { crProcessId: account.crProcessId, policyName: 'Roles', retentionDays: 5 });
  const [reader, nobody] = await Promise.all([userWithRoles(account, ['dms-retention-policy:read']), userWithRoles(account, [])]);
  const stranger = await userWithRoles(await createAccount(), ['dms-retention-policy:read']);
  t.like((await dryRun(policy.id, reader.token)).body, { policyId: policy.id, action: 'SOFT_DELETE', files: [], count: 0 });
  t.is((await dryRun(policy.id, nobody.token)).status, 403);
  t.is((await dryRun(policy.id, stranger.token)).status, 404);
  t.is((await dryRun(999_999_999, reader.token)).status, 404);
  t.is((await dryRun(policy.id, '')).status, 401);
  const error = await runRetention(account.crProcessId, reader.token).catch((e: ServiceError) => e);
  t.is((error as ServiceError).code, status.UNAUTHENTICATED);
});

test('"a legal hold on a file keeps it from deletion and retention until lifted": a held file is neither soft-deleted nor purged, nor listed by the dry run', async (t) => {
  const token = await admin();
  const { crProcessId } = await createAccount();
  const held = await file(token, crProcessId, {}, 'held.txt');
  const free = await file(token, crProcessId, {}, 'free.txt');
  const current = await api('GET', `/api/dms-file/${held.id}`, { token });
  const hold = await api('PUT', `/api/dms-file/${held.id}`, { token, body: { version: current.body.version, legalHold: true } });
  t.is(hold.status, 200, hold.text);
  await age([held.id, free.id], 400);
  const policy = await create('dms-retention-policy', { crProcessId, policyName: 'Purge all', retentionDays: 1, action: 'PURGE' });
  const listed = await dryRun(policy.id, token);
  t.deepEqual(
    listed.body.files.map((f: { fileId: number }) => f.fileId),
    [free.id],
  );
  await runRetention(crProcessId);
  t.is((await api('GET', `/api/dms-file/${held.id}`, { token })).status, 200, 'the held file is still there');
  t.true(await storedBytesExist(held.stored), 'with its bytes');
  t.is((await api('GET', `/api/dms-file/${free.id}`, { token })).status, 404);
  t.false(await storedBytesExist(free.stored));
  // lifted, the next run acts on it
  const again = await api('GET', `/api/dms-file/${held.id}`, { token });
  t.is((await api('PUT', `/api/dms-file/${held.id}`, { token, body: { version: again.body.version, legalHold: false } })).status, 200);
  await runRetention(crProcessId);
  t.is((await api('GET', `/api/dms-file/${held.id}`, { token })).status, 404);
  t.false(await storedBytesExist(held.stored));
});
