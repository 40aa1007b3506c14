/**
 * Writes a service's events into its outbox (outbox-entity.ts), always with the EntityManager of the
 * transaction that makes the change: the event commits with the change, or neither does
 * (docs/adr/0076-events-a-transactional-outbox.md).
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

/**
 * Where the event catalogue (libs/contracts/src/events.ts) registers itself, by declaration merging:
 * `catalogue` maps each event type to the changes it may name. The contracts import this package,
 * so it cannot import the catalogue back; registering types only keeps the two packages apart at
 * run time while `recordEvent` is typed by it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the contracts' `declare module`
export interface EventRegister {}

type Catalogue = EventRegister extends { catalogue: infer C extends Record<string, object> } ? C : never;

/** Every event type of the catalogue (`branch.created`, `accrual.approved`, `session.ended`). */
export type EventType = keyof Catalogue & string;

/** An event about to be written; who, when and for which request are the writer's. */
export interface EventInput<T extends EventType = EventType> {
  /** `<entity>.<what>`: `<entity>.created|updated|deleted`, or a move's own (`accrual.approved`); its entity is the part before the dot. */
  type: T;
  crProcessId: number;
  /** The record's key as its path names it (the id, or account's accountNo), as text. */
  key: string | number;
  /** The record's version after the change (before it, for a delete). */
  version?: number | undefined;
  /** The user code of who made the change (`svc:<service>` for another service). */
  actor: string;
  /** The fields the catalogue lets this type name. */
  changes: Catalogue[T];
}

/**
 * The event of a CRUD write of `resource` (`branch.created`). The catalogue declares
 * `<path>.created|updated|deleted` for each write a resource's CRUD set offers, and the engine
 * writes them for those alone, so the type is the catalogue's by the same rule.
 */
export function crudEventType(resource: Resource, what: 'created' | 'updated' | 'deleted'): EventType {
  return `${resource.path}.${what}` as EventType;
}

/** The entity an event type is about: the resource's path (`dms-file` of `dms-file.legal-hold-set`), or `session`. */
export function entityOf(type: EventType): string {
  return type.slice(0, type.indexOf('.'));
}

/**
 * Inserts one event into the outbox of `em`'s service, in `em`'s transaction (nothing under
 * OUTBOX_DISABLED). Its type is one of the catalogue's and its changes name only what the type
 * allows: `'acrual.approved'`, or `approvedAt` in a `session.ended`, does not compile.
 *
 * @example
 * await em.transactional(async (em) => {
 *   await approve(em, accrual);
 *   await recordEvent(em, { type: 'accrual.approved', crProcessId, key: accrual.id, version, actor, changes });
 * });
 */
export async function recordEvent<T extends EventType>(em: EntityManager, event: EventInput<T>): Promise<void> {
  await recordEvents(em, [event]);
}

/**
 * Inserts events into the outbox of `em`'s service in one statement, in `em`'s transaction and in
 * their order (nothing under OUTBOX_DISABLED): each as recordEvent writes it alone, so a batch of
 * writes (crud/create-records.ts) gives each its own event.
 */
export async function recordEvents(em: EntityManager, events: readonly EventInput[]): Promise<void> {
  if (disabled || events.length === 0) return;
  const now = new Date();
  const requestId = currentRequestId() ?? null;
  // fixed statements on the transaction's connection: em.insert would build them through the
  // ORM's query builder on every write, a cost the outbox's budget has no room for
  await em.execute(
    insertStatement(em, events.length),
    events.flatMap((event) => [
      randomUUID(),
      event.type,
      event.crProcessId,
      entityOf(event.type),
      String(event.key),
      event.version ?? null,
      event.actor,
      now,
      requestId,
      JSON.stringify(event.changes),
    ]),
  );
}

const statements = new WeakMap<object, string>();

/** The outbox's insert of `count` events for `em`'s service, its head built once from the entity's table. */
function insertStatement(em: EntityManager, count: number): string {
  const meta = em.getMetadata().getByClassName<Row>(OUTBOX_ENTITY);
  let head = statements.get(meta);
  if (head === undefined) {
    head = `insert into "${meta.schema}"."${meta.tableName}" (event_id, type, cr_process_id, entity, entity_key, version, actor, occurred_at, request_id, changes) values `;
    statements.set(meta, head);
  }
  return head + Array.from({ length: count }, () => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
}

/** A row's key as its path names it. */
export function keyText(resource: Resource, row: Row): string {
  return String(row[keyOf(resource)]);
}
