/**
 * Many creates of one resource in one transaction (an import's chunk: docs/adr/0157-importing-files-into-the-registry.md),
 * each record given what createRecord (handlers.ts) gives a lone create: its request read and
 * checked the same way, its idempotency key claimed and its answer kept, its hooks run, its event
 * (and so its history). What differs is only how it reaches the database: the keys claimed in one
 * statement, the rows in the flush's multi-row INSERT (so the tenant's count trigger runs once),
 * the events and the answers in one statement each.
 *
 * All or nothing: any refusal (a row's value, key or reference, a hook's, a key already claimed)
 * rolls the whole batch back, and the caller writes its creates one by one with createRecord,
 * which answers each as it always has.
 */
import type { CallContext } from '../auth/caller.ts';
import { recordEvents, type EventInput } from '../events/outbox.ts';
import { claimKeys, keepAnswers, type IdempotentRequest } from '../idempotency/idempotency.ts';
import { changeEvent, flushChecked, newRow, prepareCreate, replayable, toMessages } from './handlers.ts';
import type { Message, ResourceRuntime } from './runtime.ts';

/** A create of the batch: the request as createRecord takes it, and its idempotency key if it has one. */
export interface BatchedCreate {
  request: Message;
  idempotencyKey?: string | undefined;
}

/** A batch refused because one of its keys was claimed before (a replay, or a key reused): nothing written. */
export class KeyClaimedBefore extends Error {
  constructor() {
    super('an idempotency key of the batch was claimed before');
  }
}

/**
 * Creates the records of `creates` in one transaction of `ctx.em` and answers each as createRecord
 * would, in their order. Their keys must differ from each other. Throws what the first refusal
 * throws (createRecord's errors, or KeyClaimedBefore), with nothing written.
 *
 * @example
 * try { await createRecords(rt, rows.map((request, i) => ({ request, idempotencyKey: `import:${run}:${i}` })), ctx); }
 * catch { for (const row of rows) await createRecord(rt, row, ctx); } // each refusal answered alone
 */
export async function createRecords(rt: ResourceRuntime, creates: readonly BatchedCreate[], ctx: CallContext): Promise<Message[]> {
  const prepared = creates.map(({ request, idempotencyKey }) => prepareCreate(rt, request, { ...ctx, idempotencyKey }));
  if (prepared.length === 0) return [];
  const now = new Date();
  return ctx.em.transactional(async (em) => {
    const txCtx = { ...ctx, em };
    const keys = prepared.flatMap(({ idempotent }) => (idempotent ? [idempotent] : []));
    if (keys.length > 0 && !(await claimKeys(em, keys))) throw new KeyClaimedBefore();
    for (const { values, input } of prepared) await rt.hooks?.beforeWrite?.(values, input, txCtx, 'create', undefined);
    const written = prepared.map((create) => ({ ...create, row: em.create(rt.entity, newRow(create.values, ctx, now)) }));
    await flushChecked(rt, em);
    const events: EventInput[] = [];
    for (const { row, input } of written) {
      await rt.hooks?.afterWrite?.(row, input, txCtx, 'create', new Set(Object.keys(input)));
      // its event right after its afterWrite, as a lone create makes it (hooks.event reads what afterWrite left)
      const event = changeEvent(rt, txCtx, 'created', undefined, row);
      if (event) events.push(event);
    }
    await recordEvents(em, events);
    const messages = await toMessages(
      rt,
      written.map(({ row }) => row),
      txCtx,
    );
    const kept = written.flatMap(({ idempotent }, index): { request: IdempotentRequest; answer: Message }[] =>
      idempotent ? [{ request: idempotent, answer: replayable(rt.resource, messages[index] ?? {}) }] : [],
    );
    if (kept.length > 0) await keepAnswers(em, kept);
    return messages;
  });
}
