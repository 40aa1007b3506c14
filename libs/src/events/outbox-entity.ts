/**
 * The outbox of a service (docs/decisions.md "Events: a transactional outbox"): one row per change of
 * a record, written by the transaction that makes the change (outbox.ts), so that an event exists
 * exactly when its change committed. Each service keeps its own in its own schema
 * (`<schema>.<schema>_outbox`: the schema diff tells tables apart by their bare names); history reads it per record, the webhook dispatcher reads it in `seq`
 * order.
 *
 * `seq` orders a service's events; for one record it is also the order of the commits, since every
 * change of a record holds the record's row lock while it writes its event and commits. A statement
 * trigger notifies the channel `platform_outbox` (payload: the schema) as the transaction commits,
 * so a dispatcher listening wakes at once instead of polling.
 */
import { BigIntType, EntitySchema } from '@mikro-orm/postgresql';
import type { Row } from '../db/entity-schema.ts';

/** The entity name every service's ORM knows its outbox by (outbox.ts inserts by it). */
export const OUTBOX_ENTITY = 'OutboxEvent';

/** The channel of the commit notification (payload: the schema that holds the new events). */
export const OUTBOX_CHANNEL = 'platform_outbox';

/** The outbox table of the service whose schema is `schema`. */
export function outboxEntity(schema: string): EntitySchema<Row> {
  const table = outboxTable(schema);
  const notify = `"${schema}"."${table}_notify"`;
  return new EntitySchema<Row>({
    name: OUTBOX_ENTITY,
    tableName: table,
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
    triggers: [
      {
        name: `${table}_notify`,
        timing: 'after',
        events: ['insert'],
        forEach: 'statement',
        // raw DDL: the function is the migration's, created before the trigger that calls it
        expression: `create trigger "${table}_notify" after insert on "${schema}"."${table}" for each statement execute function ${notify}();`,
      },
    ],
  });
}

/** The outbox table's bare name in `schema`. */
export function outboxTable(schema: string): string {
  return `${schema}_outbox`;
}
