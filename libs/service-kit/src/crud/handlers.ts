import { ForeignKeyConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';
import type { Precondition, Statistics } from '@platform/kit/gen/platform/common/v1/common.ts';
import { actorOf, assertTenant, tenantScope, type CallContext } from '../auth/caller.ts';
import { DomainError, invalidField } from '@platform/kit/errors/domain-error.ts';
import { requiring } from '../grpc/requiring.ts';
import type { Handler } from '../grpc/server.ts';
import type { Row } from '../db/entity-schema.ts';
import {
  allFields,
  apiFields,
  isScalar,
  keyOf,
  methodNames,
  offers,
  recordFieldOf,
  visibleScalars,
  type Operation,
  type Resource,
} from '@platform/kit/resource/resource.ts';
import { buildListQuery, cursorMeta, pageMeta } from './list-query.ts';
import { readCursorPage, readPage } from './list-page.ts';
import { constraintViolation } from './constraint-violation.ts';
import { findVisible, liveOnly, readAlong, visibleAlong } from './key-read.ts';
import { toMessageValue, toRowValue } from '@platform/kit/resource/values.ts';
import { crudEventType, keyText, recordEvent, type EventInput } from '../events/outbox.ts';
import { changesOf } from './changes.ts';
import { claimKey, idempotentRequestOf, keepAnswer, type IdempotentRequest } from '../idempotency/idempotency.ts';
import type { Message, ResourceRuntime, WriteMode } from './runtime.ts';
import { limited, readLimitOf } from './read-limit.ts';

const READ_ONLY_ON_WRITE = new Set(['id', 'version', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy']);

/**
 * The gRPC handlers of a resource's CRUD set, keyed by grpc-js method name, with the tenant scope
 * and role checks of docs/interface.md#identity and the list rules of docs/interface.md#lists. An entity overrides a handler by
 * spreading its own after these.
 *
 * @example
 * server.addService(branch.grpc, implement(runtime, { ...crudHandlers(branchRuntime), listBranchesByPartner }));
 */
export function crudHandlers(rt: ResourceRuntime): Record<string, Handler<never, unknown>> {
  const { resource } = rt;
  const names = methodNames(resource);
  // what a record going out may show beside itself is judged on the same live access read
  const reading = (handler: Handler<never, unknown>) =>
    rt.hooks?.decorateReads ? Object.assign(handler, { roles: new Set([...(handler.roles ?? []), ...rt.hooks.decorateReads]) }) : handler;
  const all: Record<Operation, Handler<never, unknown>> = {
    get: reading(
      Object.assign(
        requiring(roleOf(resource, 'read'), (request: Message, ctx) => getRecord(rt, request, ctx)),
        // a row under a read limit is read after the limit is known, not along with the access
        rt.hooks?.readLimit ? {} : { readsAlong: (request: Message, em: EntityManager) => readAlong(rt, em, request[keyOf(rt.resource)]) },
      ),
    ),
    create: requiring(roleOf(resource, 'write'), (request: Message, ctx) => createRecord(rt, request, ctx)),
    update: requiring(roleOf(resource, 'write'), (request: Message, ctx) => updateRecord(rt, request, ctx)),
    delete: requiring(roleOf(resource, 'delete'), (request: Message, ctx) => deleteRecord(rt, request, ctx)),
    list: reading(requiring(roleOf(resource, 'read'), (request: { page?: Parameters<typeof buildListQuery>[1] }, ctx) => listRecords(rt, request, ctx))),
    stats: requiring(roleOf(resource, 'read'), (request: { crProcessId?: number }, ctx) => statistics(rt, request, ctx)),
  };
  const handlers: Record<string, Handler<never, unknown>> = {};
  for (const operation of Object.keys(all) as Operation[]) {
    if (offers(resource, operation)) handlers[names[operation]] = all[operation];
  }
  return handlers;
}

/** `<path>:read`, `<path>:write`, `<path>:delete` (docs/interface.md#identity). */
export function roleOf(resource: Resource, action: 'read' | 'write' | 'delete'): string {
  return `${resource.path}:${action}`;
}

/** The shown fields of a row as a proto message (write-only fields never leave). */
export function toMessage(resource: Resource, row: Row): Message {
  const message: Message = {};
  for (const [name, spec] of visibleScalars(resource)) {
    const value = toMessageValue(spec, row[name]);
    if (value !== undefined) message[name] = value;
  }
  return message;
}

export async function toMessages(rt: ResourceRuntime, rows: readonly Row[], ctx: CallContext): Promise<Message[]> {
  const messages = rows.map((row) => toMessage(rt.resource, row));
  await rt.hooks?.decorate?.(rows, messages, ctx);
  return messages;
}

async function getRecord(rt: ResourceRuntime, request: Message, ctx: CallContext): Promise<Message> {
  const key = request[keyOf(rt.resource)];
  const row = visibleAlong(rt, ctx, key) ?? (await findVisible(rt, ctx.em, ctx, key));
  const [message] = await toMessages(rt, [row], ctx);
  return message ?? {};
}

export async function createRecord(rt: ResourceRuntime, request: Message, ctx: CallContext): Promise<Message> {
  const { input, values, idempotent } = prepareCreate(rt, request, ctx);
  const now = new Date();
  let replayed = false;
  const answer = await ctx.em.transactional(async (em) => {
    const txCtx = { ...ctx, em };
    if (idempotent) {
      const claim = await claimKey(em, idempotent);
      replayed = claim.replay;
      if (claim.replay) return claim.answer as Message;
    }
    await rt.hooks?.beforeWrite?.(values, input, txCtx, 'create', undefined);
    const created = em.create(rt.entity, newRow(values, ctx, now));
    await flushChecked(rt, em);
    await rt.hooks?.afterWrite?.(created, input, txCtx, 'create', new Set(Object.keys(input)));
    await recordChange(rt, em, txCtx, 'created', undefined, created);
    // the answer is made in the transaction, so that a repeat of the request is given this one
    const [message = {}] = await toMessages(rt, [created], txCtx);
    if (idempotent) await keepAnswer(em, idempotent, replayable(rt.resource, message));
    return message;
  });
  // once committed: an answer that fails to commit is no replay
  if (replayed) ctx.markReplayed?.();
  return answer;
}

/** A create read before its transaction: its record, its row values checked, its tenant the caller's, its key. */
export interface PreparedCreate {
  input: Message;
  values: Row;
  idempotent: IdempotentRequest | undefined;
}

/** Reads a create request as createRecord and createRecords (create-records.ts) both do; throws what a lone create answers. */
export function prepareCreate(rt: ResourceRuntime, request: Message, ctx: CallContext): PreparedCreate {
  const input = recordOf(rt.resource, request);
  const values = readValues(rt.resource, input, 'create', Object.keys(input));
  const crProcessId = values.crProcessId;
  if (typeof crProcessId !== 'number') throw invalidField('crProcessId', 'field.required');
  assertTenant(ctx, crProcessId);
  return { input, values, idempotent: idempotentRequestOf(ctx, `${rt.resource.path}.create`, input) };
}

/** A created row's values with the columns the engine fills. */
export function newRow(values: Row, ctx: CallContext, now: Date): Row {
  const actor = actorOf(ctx);
  return { ...values, version: 0, createdAt: now, updatedAt: now, createdBy: actor, updatedBy: actor };
}

/**
 * A create's answer as a replay gives it again: without the computed secrets, which only the
 * answer that made them carries (a webhook's signing secret:
 * docs/adr/0078-idempotent-requests.md), so that a replay after a rotation or a deletion shows no secret, old or current.
 */
export function replayable(resource: Resource, message: Message): Message {
  const kept = { ...message };
  for (const [name, spec] of Object.entries(apiFields(resource))) if (isScalar(spec) && spec.secret && spec.computed) delete kept[name];
  return kept;
}

export async function updateRecord(rt: ResourceRuntime, request: Message, ctx: CallContext): Promise<Message> {
  const input = recordOf(rt.resource, request);
  const version = input.version;
  const ifMatch = preconditionOf(request);
  if (typeof version !== 'number' && !ifMatch) throw new DomainError('SVC-SYS-2001', 'version.required', { field: 'version' });
  const mask =
    Array.isArray(request.updateMask) && request.updateMask.length > 0
      ? (request.updateMask as string[])
      : Object.keys(input).filter((name) => sent(input[name]));
  const values = readValues(rt.resource, input, 'update', mask);
  const key = request[keyOf(rt.resource)];
  const row = await ctx.em.transactional(async (em) => {
    const txCtx = { ...ctx, em };
    const current = await findVisible(rt, em, txCtx, key, true);
    // both checked under the row's lock, which the write below holds until it commits
    checkPrecondition(ifMatch, current);
    if (typeof version === 'number' && current.version !== version) throw new DomainError('SVC-SYS-4002', 'version.stale');
    for (const [name, spec] of Object.entries(allFields(rt.resource))) {
      if (isScalar(spec) && spec.immutable && values[name] !== undefined && values[name] !== current[name]) {
        throw invalidField(name, 'field.readOnly');
      }
    }
    await rt.hooks?.beforeWrite?.(values, input, txCtx, 'update', current);
    const before = { ...current };
    Object.assign(current, { ...values, version: Number(current.version) + 1, updatedAt: new Date(), updatedBy: actorOf(ctx) });
    await flushChecked(rt, em);
    await rt.hooks?.afterWrite?.(current, input, txCtx, 'update', new Set(mask));
    await recordChange(rt, em, txCtx, 'updated', before, current);
    return current;
  });
  const [message] = await toMessages(rt, [row], ctx);
  return message ?? {};
}

async function deleteRecord(rt: ResourceRuntime, request: Message, ctx: CallContext): Promise<Message> {
  const softDelete = rt.resource.softDelete;
  try {
    await ctx.em.transactional(async (em) => {
      const row = await findVisible(rt, em, { ...ctx, em }, request[keyOf(rt.resource)], true);
      checkPrecondition(preconditionOf(request), row);
      await rt.hooks?.beforeDelete?.(row, { ...ctx, em });
      await recordChange(rt, em, ctx, 'deleted', row, undefined);
      if (softDelete === undefined) em.remove(row);
      else Object.assign(row, { [softDelete]: true, version: Number(row.version) + 1, updatedAt: new Date(), updatedBy: actorOf(ctx) });
      await em.flush();
    });
  } catch (error) {
    if (error instanceof ForeignKeyConstraintViolationException) throw new DomainError('SVC-SYS-4003', 'record.referenced');
    throw error;
  }
  return {};
}

async function listRecords(
  rt: ResourceRuntime,
  request: { page?: Parameters<typeof buildListQuery>[1] },
  ctx: CallContext,
): Promise<{ content: Message[]; meta: ReturnType<typeof pageMeta> }> {
  const parsed = buildListQuery(rt.resource, request.page, rt.through);
  assertTenant(ctx, parsed.crProcessId);
  const limit = await readLimitOf(rt, ctx);
  // a limited list is counted row by row, never from the tenant's kept count
  const query = limit ? { ...parsed, narrowed: true } : parsed;
  const where = limited({ ...query.where, ...liveOnly(rt.resource) }, limit);
  if (query.after) {
    const { rows, nextAfter } = await readCursorPage(ctx.em, rt.entity, query, where);
    return { content: await toMessages(rt, rows, ctx), meta: cursorMeta(query.size, query.after.start, rows.length, nextAfter) };
  }
  const { rows, totalElements } = await readPage(ctx.em, rt.entity, rt.resource, query, where);
  const content = await toMessages(rt, rows, ctx);
  return { content, meta: pageMeta(query.page, query.size, totalElements, rows.length) };
}

async function statistics(rt: ResourceRuntime, request: { crProcessId?: number }, ctx: CallContext): Promise<Statistics> {
  const tenant = tenantScope(ctx) ?? request.crProcessId;
  const limit = await readLimitOf(rt, ctx);
  const meta = ctx.em.getMetadata(rt.entity);
  const table = `"${meta.schema}"."${meta.tableName}"`;
  const conditions = [...(tenant === undefined ? [] : ['cr_process_id = ?']), ...(limit ? [limit.sql] : [])];
  const [counts] = await ctx.em.execute<{ total: string; active: string }[]>(
    `select count(*) as total, count(*) filter (where status) as active from ${table}` + (conditions.length === 0 ? '' : ` where ${conditions.join(' and ')}`),
    [...(tenant === undefined ? [] : [tenant]), ...(limit?.values ?? [])],
  );
  const total = Number(counts?.total ?? 0);
  const active = Number(counts?.active ?? 0);
  return { totalCount: total, activeCount: active, passiveCount: total - active };
}

/**
 * The event of a create, update or delete (`<path>.created|updated|deleted`), written in the
 * change's transaction (events/outbox.ts). A create or update that is one of the resource's moves
 * writes the move's own type instead (hooks.event), one event per change.
 */
async function recordChange(
  rt: ResourceRuntime,
  em: EntityManager,
  ctx: CallContext,
  what: 'created' | 'updated' | 'deleted',
  before: Row | undefined,
  after: Row | undefined,
): Promise<void> {
  const event = changeEvent(rt, ctx, what, before, after);
  if (event) await recordEvent(em, event);
}

/** The event recordChange writes (createRecords writes a batch's in one statement); none without a row. */
export function changeEvent(
  rt: ResourceRuntime,
  ctx: CallContext,
  what: 'created' | 'updated' | 'deleted',
  before: Row | undefined,
  after: Row | undefined,
): EventInput | undefined {
  const row = after ?? before;
  if (!row) return undefined;
  const own = after && what !== 'deleted' ? rt.hooks?.event?.(what === 'created' ? 'create' : 'update', before, after, ctx) : undefined;
  return {
    type: own?.type ?? crudEventType(rt.resource, what),
    crProcessId: Number(row.crProcessId),
    key: keyText(rt.resource, row),
    version: Number(row.version),
    actor: actorOf(ctx),
    changes: { ...changesOf(rt.resource, before, after), ...own?.changes },
  };
}

/** The If-Match of an update or delete request (`ifMatch`), when the call had one. */
function preconditionOf(request: Message): Precondition | undefined {
  const ifMatch = request.ifMatch;
  return ifMatch !== null && typeof ifMatch === 'object' ? (ifMatch as Precondition) : undefined;
}

/**
 * Refuses a write to a row, read under its lock, whose version the If-Match does not name: 412
 * SVC-SYS-4002 (docs/interface.md#conditional-requests). `*` passes any row: that it exists is already known.
 */
function checkPrecondition(ifMatch: Precondition | undefined, row: Row): void {
  if (ifMatch && !ifMatch.any && !ifMatch.versions.includes(Number(row.version))) throw new DomainError('SVC-SYS-4002', 'precondition.failed');
}

/**
 * Whether a field without an update mask was sent: set, and for a list (a proto `repeated` field,
 * which cannot be absent, only empty) not empty. An empty mask is what the gateway sends for a body
 * naming no writable field (a touch: `version` alone), so an empty list there means "unchanged";
 * a list cleared on purpose is named in the mask, and refused where the field is required.
 */
function sent(value: unknown): boolean {
  return value !== undefined && !(Array.isArray(value) && value.length === 0);
}

function recordOf(resource: Resource, request: Message): Message {
  const record = request[recordFieldOf(resource)];
  return record !== null && typeof record === 'object' ? (record as Message) : {};
}

/**
 * The row values of a create or update: read-only fields ignored (no mass assignment), required
 * fields present on create and never cleared on update, every value checked by its field's kind.
 */
export function readValues(resource: Resource, input: Message, mode: WriteMode, names: readonly string[]): Row {
  const fields = apiFields(resource);
  const values: Row = {};
  for (const name of names) {
    const spec = Object.hasOwn(fields, name) ? fields[name] : undefined;
    if (!spec) throw invalidField(name, 'field.unknown');
    if (!isScalar(spec) || spec.readOnly || READ_ONLY_ON_WRITE.has(name)) continue;
    const value = input[name];
    if (value === undefined || value === null) {
      if (mode === 'update' && (spec.required || spec.default !== undefined)) throw invalidField(name, 'field.required');
      if (mode === 'update') values[name] = null;
      continue;
    }
    values[name] = toRowValue(name, spec, value);
  }
  if (mode === 'create') {
    for (const [name, spec] of Object.entries(fields)) {
      if (!spec.required || (isScalar(spec) && spec.readOnly)) continue;
      const missing = isScalar(spec) ? values[name] === undefined : !Array.isArray(input[name]) || input[name].length === 0;
      if (missing) throw invalidField(name, 'field.required');
    }
    for (const [name, spec] of Object.entries(fields)) {
      if (isScalar(spec) && spec.default !== undefined && values[name] === undefined) values[name] = spec.default;
    }
  }
  return values;
}

/**
 * Flushes a create or update. References (`...Id`) must name a record of the same tenant
 * (docs/interface.md#records), and a `notBefore` date must not precede its other date: the database's foreign
 * keys and checks decide, in the same statement as the write, so no concurrent delete or write slips
 * between a check and the write; a refusal is 400 SVC-SYS-2001 naming the field. A foreign key of
 * another table refusing an update (a branch moved to another partner while contacts at it name the
 * old one: a `within` reference) is 409 SVC-SYS-4003, as for a delete of a referenced record.
 */
export async function flushChecked(rt: ResourceRuntime, em: EntityManager): Promise<void> {
  try {
    await em.flush();
  } catch (error) {
    const violation = constraintViolation(rt.resource, error);
    if (violation) throw violation;
    if (error instanceof ForeignKeyConstraintViolationException) throw new DomainError('SVC-SYS-4003', 'record.referenced');
    throw error;
  }
}
