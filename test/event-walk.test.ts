/**
 * Every resource of the registry, walked (docs/adr/0076-events-a-transactional-outbox.md): a
 * create and an update of its sample each write exactly one event, `<path>.created` then
 * `<path>.updated` (dms-file is made by its upload: `dms-file.uploaded`), whose changes name only
 * fields a record shows: "Passwords, hashes and secrets never enter an event".
 */
import test from 'ava';
import { apiFields, isScalar, offers, type Resource } from '@platform/kit/resource/resource.ts';
import { registry } from '../gateway/src/registry.ts';
import { adminSession, createAccount, freshTenant } from './helpers/factories.ts';
import { api } from './helpers/platform.ts';
import { sql } from './helpers/db.ts';
import { keyPath, sampleOf } from './helpers/samples.ts';

interface EventRow {
  type: string;
  changes: Record<string, { from: unknown; to: unknown }>;
}

function eventsOf(resource: Resource, key: unknown): Promise<EventRow[]> {
  const schema = resource.service;
  return sql<EventRow>(`select type, changes from "${schema}"."${schema}_outbox" where entity = $1 and entity_key = $2 order by seq`, [
    resource.path,
    String(key),
  ]);
}

/** A bcrypt hash, or any of the samples' passwords. */
const SECRET = /\$2[aby]\$\d\d\$|walk-password|walk-share-pass/;

/** What a change may name: a field the record shows (not write-only, computed or secret), or a relation it shows (user-process selects). */
function shownField(resource: Resource, name: string): boolean {
  const spec = apiFields(resource)[name];
  if (!spec) return false;
  if (!isScalar(spec)) return true;
  return !spec.writeOnly && !spec.computed && !spec.secret && !['version', 'updatedAt', 'updatedBy'].includes(name);
}

for (const resource of registry) {
  const sample = sampleOf(resource);
  if (!offers(resource, 'update')) continue;
  test(`${resource.path}: a create and an update of its sample write one event each, with no secret and only shown fields`, async (t) => {
    const { token } = await adminSession();
    let record: any;
    let createdType = `${resource.path}.created`;
    if (sample.existing) {
      record = await sample.existing((await createAccount()).crProcessId);
      createdType = `${resource.path}.uploaded`;
    } else {
      const crProcessId = sample.tenantRecord ? freshTenant() : (await createAccount()).crProcessId;
      const created = await api('POST', `/api/${resource.path}`, { token, body: await sample.create(crProcessId) });
      t.is(created.status, 200, created.text);
      record = created.body;
    }
    const key = keyPath(resource, record);
    const updated = await api('PUT', `/api/${resource.path}/${key}`, { token, body: { version: record.version, ...sample.update() } });
    t.is(updated.status, 200, updated.text);

    const events = await eventsOf(resource, decodeURIComponent(key));
    t.deepEqual(
      events.map((event) => event.type),
      [createdType, `${resource.path}.updated`],
    );
    for (const event of events) {
      const hidden = Object.keys(event.changes).filter((name) => !shownField(resource, name));
      t.deepEqual(hidden, [], `${event.type}: fields a record does not show`);
      t.notRegex(JSON.stringify(event.changes), SECRET, `${event.type}: a password or hash`);
      for (const change of Object.values(event.changes)) t.notDeepEqual(change.from, change.to, event.type);
    }
    t.true(Object.keys(events[1]?.changes ?? {}).length > 0, 'the update names what it changed');
  });
}
