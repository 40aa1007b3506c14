/**
 * Writes a service's events into its outbox (outbox-entity.ts), always with the EntityManager of the
 * transaction that makes the change: the event commits with the change, or neither does
 * (docs/decisions.md "Events: a transactional outbox").
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Row } from '../db/entity-schema.ts';
import { currentRequestId } from '@platform/kit/log/request-id.ts';
import { keyOf, type Resource } from '@platform/kit/resource/resource.ts';
import { OUTBOX_ENTITY } from './outbox-entity.ts';

// OUTBOX_DISABLED (config.ts), set once by the service's start: the benchmark's baseline measures
// the CRUD path without its event; production refuses the switch, so no deployment loses events.
let disabled = false;

/** Makes recordEvent a no-op (true) or not; the service's start passes config.outboxDisabled. */
export function setOutboxDisabled(value: boolean): void {
  disabled = value;
}

/** One changed field: its value before and after, as records show it (absent values are null). */
export interface FieldChange {
  from: unknown;
  to: unknown;
}

/** Changed fields by name. */
export type Changes = Record<string, FieldChange>;

/** An event about to be written; who, when and for which request are the writer's. */
export interface EventInput {
  /** `<entity>.created|updated|deleted`, or a move's own (`accrual.approved`). */
  type: string;
  crProcessId: number;
  /** The resource's path (`branch`, `dms-file`). */
  entity: string;
  /** The record's key as its path names it (the id, or account's accountNo), as text. */
  key: string | number;
  /** The record's version after the change (before it, for a delete). */
  version?: number | undefined;
  /** The user code of who made the change (`svc:<service>` for another service). */
  actor: string;
  changes: Changes;
}

/**
 * Inserts one event into the outbox of `em`'s service, in `em`'s transaction (nothing under
 * OUTBOX_DISABLED).
 *
 * @example
 * await em.transactional(async (em) => {
 *   await approve(em, accrual);
 *   await recordEvent(em, { type: 'accrual.approved', crProcessId, entity: 'accrual', key: accrual.id, version, actor, changes });
 * });
 */
export async function recordEvent(em: EntityManager, event: EventInput): Promise<void> {
  if (disabled) return;
  // one fixed statement on the transaction's connection: em.insert would build it through the
  // ORM's query builder on every write, a cost the outbox's budget has no room for
  await em.execute(insertStatement(em), [
    randomUUID(),
    event.type,
    event.crProcessId,
    event.entity,
    String(event.key),
    event.version ?? null,
    event.actor,
    new Date(),
    currentRequestId() ?? null,
    JSON.stringify(event.changes),
  ]);
}

const statements = new WeakMap<object, string>();

/** The outbox's insert for `em`'s service, built once from the entity's table. */
function insertStatement(em: EntityManager): string {
  const meta = em.getMetadata().getByClassName<Row>(OUTBOX_ENTITY);
  let sql = statements.get(meta);
  if (sql === undefined) {
    sql =
      `insert into "${meta.schema}"."${meta.tableName}" ` +
      '(event_id, type, cr_process_id, entity, entity_key, version, actor, occurred_at, request_id, changes) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
    statements.set(meta, sql);
  }
  return sql;
}

/** A row's key as its path names it. */
export function keyText(resource: Resource, row: Row): string {
  return String(row[keyOf(resource)]);
}
