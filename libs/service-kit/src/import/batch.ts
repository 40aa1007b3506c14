/**
 * A chunk of an import's rows created as one batch (docs/adr/0157-importing-files-into-the-registry.md):
 * the rows read as importRow reads them, then those that are creates written by the CRUD engine's
 * createRecords in one transaction, each with its own key `import:<run>:<row>`, hooks, event and
 * history. A dry run's batch is rolled back after it is written, as its rows are one by one.
 *
 * What the batch cannot answer exactly as the rows alone would is left to importRow: the whole
 * batch when it fails (a row's value, key or reference refused, a hook's refusal, a key claimed
 * before by a run resumed), so that each row's error and the counts are a lone row's; with
 * updateByCode, the rows whose code names a record (updates, or unchanged); and every row of an
 * entity whose mapped fields reference the entity itself (a category's parent), since a row may
 * name a record an earlier row of the file creates, which a batch has not written when it reads.
 */
import type { CallContext } from '../auth/caller.ts';
import { createRecords, KeyClaimedBefore } from '../crud/create-records.ts';
import type { Message } from '../crud/runtime.ts';
import type { Cell } from './cells.ts';
import { createRequest, dryRun, readRow, rowError, rowKey, type RowResult, type RunPlan } from './engine.ts';
import { importableFields } from './mapping.ts';
import { codeFieldOf } from './references.ts';

/**
 * The results of a chunk's rows (numbered from `firstRow`) that the batch answered; undefined for
 * each row left to importRow. A failure that is not a row's (the database gone) is thrown.
 */
export async function importBatch(plan: RunPlan, ctx: CallContext, chunk: readonly (readonly Cell[])[], firstRow: number): Promise<(RowResult | undefined)[]> {
  const results: (RowResult | undefined)[] = new Array<RowResult | undefined>(chunk.length).fill(undefined);
  if (referencesItself(plan)) return results;
  const creates: { index: number; input: Message }[] = [];
  for (const [index, cells] of chunk.entries()) {
    const { input, errors } = await readRow(plan, ctx, cells, firstRow + index);
    if (input) creates.push({ index, input });
    else results[index] = { outcome: 'failed', errors };
  }
  const batch = await withoutUpdates(plan, ctx, creates);
  if (batch.length === 0) return results;
  const requests = batch.map(({ index, input }) => ({ request: createRequest(plan, input), idempotencyKey: rowKey(plan, firstRow + index) }));
  try {
    if (plan.mode === 'import') await createRecords(plan.rt, requests, ctx);
    else await dryRun(ctx, (txCtx) => createRecords(plan.rt, requests, txCtx));
  } catch (error) {
    // rolled back: its rows are written one by one, each refusal answered as its row's own
    if (error instanceof KeyClaimedBefore || rowError(error)) return results;
    throw error;
  }
  for (const { index } of batch) results[index] = { outcome: 'created', errors: [] };
  return results;
}

/** Whether a mapped field references the run's own entity. */
function referencesItself(plan: RunPlan): boolean {
  const fields = new Map(importableFields(plan.rt.resource));
  return plan.mapping.some((field) => field !== null && fields.get(field)?.references === plan.rt.resource.path);
}

/** With updateByCode, the rows whose code names no record of the tenant (creates); every row otherwise. */
async function withoutUpdates<T extends { input: Message }>(plan: RunPlan, ctx: CallContext, rows: readonly T[]): Promise<readonly T[]> {
  const code = codeFieldOf(plan.rt.resource);
  if (!plan.updateByCode || code === undefined) return rows;
  const codes = rows.flatMap(({ input }) => (input[code] === undefined ? [] : [input[code]]));
  if (codes.length === 0) return rows;
  const found = await ctx.em.find(plan.rt.entity, { crProcessId: plan.crProcessId, [code]: { $in: codes } } as never, { fields: [code] as never });
  const existing = new Set(found.map((row) => String(row[code])));
  return rows.filter(({ input }) => input[code] === undefined || !existing.has(String(input[code])));
}
