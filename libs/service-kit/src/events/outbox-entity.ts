/**
 * The outbox of a service (docs/adr/0076-events-a-transactional-outbox.md): one row per change of
 * a record, written by the transaction that makes the change (outbox.ts), so that an event exists
 * exactly when its change committed. Each service keeps its own in its own schema
 * (`<schema>.<schema>_outbox`: the schema diff tells tables apart by their bare names); history reads it per record, the webhook dispatcher reads it in `seq`
 * order.
 *
 * `seq` orders a service's events; for one record it is also the order of the commits, since every
 * change of a record holds the record's row lock while it writes its event and commits. No trigger
 * notifies a listener: PostgreSQL holds one database-wide lock from a notifying transaction's
 * pre-commit through its WAL flush, which serialises every writing commit (measured: creates at
 * 0.65x); the dispatcher polls the partial index of undispatched rows instead.
 */
import { BigIntType, EntitySchema } from '@mikro-orm/postgresql';
import type { Row } from '../db/entity-schema.ts';
import { tenantWall } from '../db/tenant-wall.ts';

/** The entity name every service's ORM knows its outbox by (outbox.ts inserts by it). */
export const OUTBOX_ENTITY = 'OutboxEvent';

/** The outbox table of the service whose schema is `schema`. */
export function outboxEntity(schema: string): EntitySchema<Row> {
  const table = outboxTable(schema);
  return new EntitySchema<Row>({
    name: OUTBOX_ENTITY,
    tableName: table,
    policies: tenantWall(),
    schema,
    properties: {
      seq: { type: new BigIntType('number'), primary: true, autoincrement: true },
      eventId: { type: 'uuid', unique: `${table}_event_id_unique` },
      type: { type: 'string', length: 100 },
      crProcessId: { type: new BigIntType('number') },
      entity: { type: 'string', length: 64 },
      entityKey: { type: 'string', length: 255 },
      version: { type: 'integer', nullable: true },
      actor: { type: 'string', length: 100, nullable: true },
      occurredAt: { type: 'datetime', columnType: 'timestamptz' },
      requestId: { type: 'string', length: 100, nullable: true },
      changes: { type: 'json' },
      /** Handed to the webhook dispatcher (its fan-out sets it, in the transaction that makes the deliveries). */
      dispatched: { type: 'boolean', default: false },
    } as never,
    indexes: [
      { name: `${table}_record_index`, properties: ['crProcessId', 'entity', 'entityKey', 'seq'] as never },
      { name: `${table}_pending_index`, expression: `create index "${table}_pending_index" on "${schema}"."${table}" ("seq") where not "dispatched"` },
    ],
  });
}

/** The outbox table's bare name in `schema`. */
export function outboxTable(schema: string): string {
  return `${schema}_outbox`;
}
