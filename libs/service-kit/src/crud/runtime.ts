/**
 * What the CRUD engine knows of a resource on the service side: its declaration, its entity and the
 * hooks its service adds. The handlers (handlers.ts) and the key read (key-read.ts) both take it.
 */
import type { EntitySchema } from '@mikro-orm/postgresql';
import type { CallContext } from '../auth/caller.ts';
import { snake, type Row } from '../db/entity-schema.ts';
import { throughFilters } from '@platform/kit/resource/through-filters.ts';
import type { MessageOf, RowOf } from './records.ts';
import type { Resource } from '@platform/kit/resource/resource.ts';
import type { Changes, EventType } from '../events/outbox.ts';
import type { ThroughQuery } from './list-query.ts';
import type { ReadLimit } from './read-limit.ts';

/** A record as it travels in a proto message: camelCase fields, optional ones absent. */
export type Message = Record<string, unknown>;

export type WriteMode = 'create' | 'update';

/**
 * What a write's event says beyond the generic one
 * (docs/adr/0077-events-domain-moves-and-history.md): a move's own type in place of `<path>.created|updated`, and changed fields that are
 * not the record's own columns (user-process selects), added to those.
 */
export interface EventOverride {
  /** One of the catalogue's (libs/contracts/src/events.ts). */
  type?: EventType;
  changes?: Changes;
}

/**
 * Where a resource's behaviour differs from the CRUD set, as the engine calls it (rows and
 * messages of any resource). Write them typed with `defineHooks`.
 */
export interface ResourceHooks {
  /** Checks or changes the values about to be written (hash a password, refuse a field). */
  beforeWrite?(values: Row, input: Message, ctx: CallContext, mode: WriteMode, current: Row | undefined): Promise<void>;
  /** Writes what lives outside the row (user-process selects), after the row is flushed. */
  afterWrite?(row: Row, input: Message, ctx: CallContext, mode: WriteMode, written: ReadonlySet<string>): Promise<void>;
  /** Adds fields that are not columns to records going out, a page at a time. */
  decorate?(rows: readonly Row[], messages: Message[], ctx: CallContext): Promise<void>;
  /**
   * Roles `decorate` may show more by (auth/caller.ts `allows`): a get's and a list's live access is
   * read for them beside the resource's own read role, which alone refuses the call.
   */
  decorateReads?: readonly string[];
  /** Runs before a row is deleted (refuse, or clean up what the row owns). */
  beforeDelete?(row: Row, ctx: CallContext): Promise<void>;
  /** The write's own event, when it is a move (a legal hold set, a super user demoted); after afterWrite, in the write's transaction. */
  event?(mode: WriteMode, before: Row | undefined, after: Row, ctx: CallContext): EventOverride | undefined;
  /**
   * Which rows of its tenant the caller may read beyond the resource's read role (read-limit.ts),
   * asked once per read by key, list and statistics; undefined: every row. A resource with it
   * reads a get's row after the limit, not along with the access.
   */
  readLimit?(ctx: CallContext): Promise<ReadLimit | undefined>;
}

/**
 * The hooks of one resource, typed by its declaration: rows (RowOf) with each column's type and
 * nullability, and the proto message it travels as. Each hook runs inside the write's transaction.
 */
export interface HooksOf<R extends Resource> {
  /** Checks or changes the values about to be written (hash a password, refuse a field). */
  beforeWrite?(values: Partial<RowOf<R>>, input: MessageOf<R>, ctx: CallContext, mode: WriteMode, current: RowOf<R> | undefined): Promise<void>;
  /** Writes what lives outside the row (user-process selects), after the row is flushed. */
  afterWrite?(row: RowOf<R>, input: MessageOf<R>, ctx: CallContext, mode: WriteMode, written: ReadonlySet<string>): Promise<void>;
  /** Adds fields that are not columns to records going out, a page at a time. */
  decorate?(rows: readonly RowOf<R>[], messages: MessageOf<R>[], ctx: CallContext): Promise<void>;
  /** Roles `decorate` may show more by; read with the get's and the list's access (ResourceHooks). */
  decorateReads?: readonly string[];
  /** Runs before a row is deleted (refuse, or clean up what the row owns). */
  beforeDelete?(row: RowOf<R>, ctx: CallContext): Promise<void>;
  /** The write's own event, when it is a move (a legal hold set, a super user demoted); after afterWrite, in the write's transaction. */
  event?(mode: WriteMode, before: RowOf<R> | undefined, after: RowOf<R>, ctx: CallContext): EventOverride | undefined;
  /** Which rows of its tenant the caller may read beyond the resource's read role (ResourceHooks). */
  readLimit?(ctx: CallContext): Promise<ReadLimit | undefined>;
}

/**
 * A resource's hooks, typed against its declaration, as the engine takes them. The engine hands
 * them rows it hydrated from that same declaration, so the typed view is the rows' own.
 *
 * @example
 * export const userInfoHooks = defineHooks(userInfo, { async beforeWrite(values, input, ctx, mode, current) { values.superUser ... } });
 */
export function defineHooks<R extends Resource>(_resource: R, hooks: HooksOf<R>): ResourceHooks {
  return hooks as unknown as ResourceHooks;
}

/** What the engine needs of a resource on the service side. */
export interface ResourceRuntime {
  resource: Resource;
  entity: EntitySchema<Row>;
  hooks?: ResourceHooks;
  /** Its list's filters through a reference, by name, as the list query answers them (list-query.ts). */
  through?: ReadonlyMap<string, ThroughQuery>;
}

/**
 * The runtime of a resource from its service's entities (built by `entitySchemas`), with its list's
 * filters through a reference resolved among the service's `resources` (through-filters.ts).
 */
export function resourceRuntime(
  entities: ReadonlyMap<string, EntitySchema<Row>>,
  resource: Resource,
  hooks?: ResourceHooks,
  resources: readonly Resource[] = [resource],
): ResourceRuntime {
  const entity = entities.get(resource.path);
  if (!entity) throw new Error(`no entity for ${resource.path}`);
  const through = new Map<string, ThroughQuery>();
  for (const { name, via, target, spec } of throughFilters(resource, resources)) {
    const meta = entities.get(target.path)?.meta;
    if (!meta) throw new Error(`no entity for ${target.path}`);
    through.set(name, { via, table: `"${meta.schema ?? 'public'}"."${meta.tableName}"`, column: snake(name), spec });
  }
  return { resource, entity, ...(hooks && { hooks }), ...(through.size > 0 && { through }) };
}
