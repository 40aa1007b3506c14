/**
 * The transactional outbox (docs/adr/0076-events-a-transactional-outbox.md): "every create,
 * update and delete of every entity ... writes one event row in the same transaction as the change",
 * with "the changed fields with before and after"; "a failed write leaves no event".
 */
import test from 'ava';
import { adminSession, createBranch, createPartner, freshTenant } from './helpers/factories.ts';
import { api } from './helpers/platform.ts';
import { sql } from './helpers/db.ts';

interface EventRow {
  event_id: string;
  type: string;
  cr_process_id: string;
  entity: string;
  entity_key: string;
  version: number | null;
  actor: string | null;
  request_id: string | null;
  changes: Record<string, { from: unknown; to: unknown }>;
}

function eventsOf(schema: string, entity: string, key: unknown): Promise<EventRow[]> {
  return sql<EventRow>(`select * from "${schema}"."${schema}_outbox" where entity = $1 and entity_key = $2 order by seq`, [entity, String(key)]);
}

test('a branch created, updated and deleted leaves three events, each with its version, actor, request id and changes', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const partner = await createPartner(tenant);
  const branch = await createBranch(tenant, partner.id, { branchName: 'North' });
  const updated = await api('PUT', `/api/branch/${branch.id}`, {
    token,
    body: { ...branch, branchName: 'South' },
    headers: { 'x-request-id': 'outbox-test-1' },
  });
  t.is(updated.status, 200, updated.text);
  const deleted = await api('DELETE', `/api/branch/${branch.id}`, { token });
  t.is(deleted.status, 204, deleted.text);

  const events = await eventsOf('bpm', 'branch', branch.id);
  t.deepEqual(
    events.map((event) => [event.type, event.version]),
    [
      ['branch.created', 0],
      ['branch.updated', 1],
      ['branch.deleted', 1],
    ],
  );
  for (const event of events) {
    t.is(Number(event.cr_process_id), tenant);
    t.is(event.actor, 'admin');
    t.regex(event.event_id, /^[0-9a-f-]{36}$/);
  }
  t.deepEqual(events[0]?.changes.branchName, { from: null, to: 'North' });
  t.deepEqual(events[1]?.changes, { branchName: { from: 'North', to: 'South' } });
  t.is(events[1]?.request_id, 'outbox-test-1');
  t.deepEqual(events[2]?.changes.branchName, { from: 'South', to: null });
});

test('a write the database refuses leaves no event', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const partner = await createPartner(tenant);
  const branch = await createBranch(tenant, partner.id, { branchCode: 'B-1' });
  const twin = await api('POST', '/api/branch', { token, body: { crProcessId: tenant, businessPartnerId: partner.id, branchName: 'Twin', branchCode: 'B-1' } });
  t.is(twin.status, 409, twin.text);
  const stale = await api('PUT', `/api/branch/${branch.id}`, { token, body: { ...branch, version: 7, branchName: 'Stale' } });
  t.is(stale.status, 409, stale.text);
  const rows = await sql<{ type: string }>(`select type from bpm.bpm_outbox where cr_process_id = $1 order by seq`, [tenant]);
  t.deepEqual(
    rows.map((row) => row.type),
    ['business-partner.created', 'branch.created'],
  );
});
