/**
 * One row of an imported file written as a create or update request would write it
 * (docs/interface.md#import): its cells read (cells.ts), its references resolved
 * (references.ts), then the CRUD engine's own createRecord or updateRecord in a transaction of its
 * own, with its hooks, checks, event and history as for a record written alone: the way of each
 * row a chunk's batch (batch.ts) leaves. A dry run writes the row the same way inside a
 * transaction it rolls back, so that what it reports cannot differ from what the import meets but
 * for what changes in between.
 */
import { CheckConstraintViolationException, ForeignKeyConstraintViolationException, UniqueConstraintViolationException } from '@mikro-orm/core';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import { translate, type Language, type MessageKey } from '@platform/kit/i18n/messages.ts';
import { keyOf, recordFieldOf, type ScalarField } from '@platform/kit/resource/resource.ts';
import { toMessageValue, toRowValue } from '@platform/kit/resource/values.ts';
import type { CallContext } from '../auth/caller.ts';
import { createRecord, readValues, updateRecord } from '../crud/handlers.ts';
import type { Message, ResourceRuntime } from '../crud/runtime.ts';
import { toDomainError } from '../errors/to-domain-error.ts';
import { cellValue, isBlank, type Cell } from './cells.ts';
import { importableFields } from './mapping.ts';
import { codeFieldOf, type ReferenceResolver } from './references.ts';

export type RowOutcome = 'created' | 'updated' | 'unchanged' | 'failed';

/** An error of one row, as kept (run-entity.ts's error table) and rendered when read. */
export interface RowError {
  rowNumber: number;
  columnName: string | null;
  field: string | null;
  code: string;
  messageKey: string;
  messageParams: Record<string, string>;
}

/** What a run's rows share: the entity, the mapping, the options, and what is read once per run. */
export interface RunPlan {
  rt: ResourceRuntime;
  crProcessId: number;
  runId: number;
  header: readonly string[];
  mapping: readonly (string | null)[];
  updateByCode: boolean;
  mode: 'check' | 'import';
  references: ReferenceResolver;
  /** For each code of the file, the first row that has it (duplicates within the file). */
  firstRowOfCode: ReadonlyMap<string, number>;
}

/** The rows' numbers in the file: the header is row 1, the first row of data 2. */
export const FIRST_ROW = 2;

/** Thrown inside a dry run's transaction, after its writes, to roll them back. */
class DryRun extends Error {
  readonly outcome: unknown;
  constructor(outcome: unknown) {
    super('dry run');
    this.outcome = outcome;
  }
}

/** The code column of a plan's mapping (its index), when the entity has a code and the file maps it. */
export function codeColumnOf(plan: Pick<RunPlan, 'rt' | 'mapping'>): number {
  const code = codeFieldOf(plan.rt.resource);
  return code === undefined ? -1 : plan.mapping.indexOf(code);
}

/** For each code of the file's rows, the first row that has it. */
export function firstRows(rows: readonly Cell[][], column: number): Map<string, number> {
  const first = new Map<string, number>();
  if (column < 0) return first;
  rows.forEach((row, index) => {
    const cell = row[column];
    if (isBlank(cell ?? null)) return;
    const code = String(cell).trim();
    if (!first.has(code)) first.set(code, index + FIRST_ROW);
  });
  return first;
}

/** A row's outcome and its errors, as the run counts and keeps them. */
export interface RowResult {
  outcome: RowOutcome;
  errors: RowError[];
}

/**
 * Writes (or, in a dry run, tries) one row; its outcome and its errors. A failure that is not the
 * row's (the database gone) is thrown: the run stops and its job is tried again.
 */
export async function importRow(plan: RunPlan, ctx: CallContext, cells: readonly Cell[], rowNumber: number): Promise<RowResult> {
  const { input, errors } = await readRow(plan, ctx, cells, rowNumber);
  if (!input) return { outcome: 'failed', errors };
  try {
    const outcome =
      plan.mode === 'import' ? await writeRow(plan, ctx, input, rowNumber) : await dryRun(ctx, (txCtx) => writeRow(plan, txCtx, input, rowNumber));
    return { outcome, errors };
  } catch (error) {
    const domain = rowError(error);
    if (!domain) throw error;
    return { outcome: 'failed', errors: [errorOf(plan, rowNumber, domain, null)] };
  }
}

/** A failure of the row's own (its values, its references, its keys), or undefined for any other. */
export function rowError(error: unknown): DomainError | undefined {
  if (error instanceof DomainError) return error.code.startsWith('SVC-SYS-2') || error.code.startsWith('SVC-SYS-4') ? error : undefined;
  if (
    error instanceof UniqueConstraintViolationException ||
    error instanceof ForeignKeyConstraintViolationException ||
    error instanceof CheckConstraintViolationException
  ) {
    return toDomainError(error, () => {});
  }
  return undefined;
}

/** What `write` does, in a transaction rolled back after it: a dry run's outcome. */
export async function dryRun<T>(ctx: CallContext, write: (ctx: CallContext) => Promise<T>): Promise<T> {
  try {
    return await ctx.em.transactional(async (em) => {
      throw new DryRun(await write({ ...ctx, em }));
    });
  } catch (error) {
    if (error instanceof DryRun) return error.outcome as T;
    throw error;
  }
}

/** A row's error as kept: the column is the cell's, else the one its field is mapped from. */
function errorOf(plan: RunPlan, rowNumber: number, error: DomainError, column: number | null): RowError {
  const field = error.params.field ?? (column === null ? null : plan.mapping[column]) ?? null;
  const at = column ?? (field === null ? -1 : plan.mapping.indexOf(field));
  return {
    rowNumber,
    columnName: at >= 0 ? (plan.header[at] ?? null) : null,
    field,
    code: error.code,
    messageKey: error.messageKey,
    messageParams: error.params,
  };
}

/**
 * The row's message: each mapped, non-blank cell read for its field, references resolved; none
 * when a cell is refused, or the row repeats an earlier row's code (every such error reported).
 */
export async function readRow(plan: RunPlan, ctx: CallContext, cells: readonly Cell[], rowNumber: number): Promise<{ input?: Message; errors: RowError[] }> {
  const errors: RowError[] = [];
  const fields = new Map(importableFields(plan.rt.resource));
  const input: Message = {};
  for (let column = 0; column < plan.mapping.length; column++) {
    const field = plan.mapping[column];
    const cell = cells[column] ?? null;
    if (!field || isBlank(cell)) continue;
    const spec = fields.get(field) as ScalarField;
    try {
      input[field] =
        spec.references !== undefined && spec.kind === 'long'
          ? await plan.references.resolve(ctx.em, field, spec, String(cell).trim())
          : cellValue(field, spec, cell, plan.rt.resource.labels);
      // the field's own rules now, so that every cell of the row is reported, not the write's first
      toRowValue(field, spec, input[field]);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      errors.push(errorOf(plan, rowNumber, error, column));
    }
  }
  const codeColumn = codeColumnOf(plan);
  const code = codeColumn >= 0 ? cells[codeColumn] : undefined;
  if (code !== undefined && code !== null && !isBlank(code)) {
    const first = plan.firstRowOfCode.get(String(code).trim());
    if (first !== undefined && first < rowNumber) {
      const duplicate = new DomainError('SVC-SYS-4005', 'import.duplicateInFile', { field: plan.mapping[codeColumn] ?? '', row: String(first) });
      errors.push(errorOf(plan, rowNumber, duplicate, codeColumn));
    }
  }
  return errors.length > 0 ? { errors } : { input, errors };
}

/**
 * Creates the row's record, or with updateByCode updates the record its code names when a mapped
 * value differs (unchanged otherwise: nothing written, no event, no new version). A create carries
 * the idempotency key `import:<run>:<row>`, so that a run resumed after its worker died replays a
 * row it wrote instead of writing it twice.
 */
async function writeRow(plan: RunPlan, ctx: CallContext, input: Message, rowNumber: number): Promise<RowOutcome> {
  const { rt } = plan;
  const recordField = recordFieldOf(rt.resource);
  const code = codeFieldOf(rt.resource);
  if (plan.updateByCode && code !== undefined && input[code] !== undefined) {
    const current = await ctx.em.findOne(rt.entity, { crProcessId: plan.crProcessId, [code]: input[code] } as never);
    if (current) {
      const names = Object.keys(input);
      const values = readValues(rt.resource, input, 'update', names);
      const specs = new Map(importableFields(rt.resource));
      const differs = names.some((name) => {
        const spec = specs.get(name);
        return spec !== undefined && toMessageValue(spec, values[name]) !== toMessageValue(spec, current[name]);
      });
      if (!differs) return 'unchanged';
      const key = keyOf(rt.resource);
      await updateRecord(rt, { [key]: current[key], [recordField]: { ...input, version: current.version }, updateMask: names }, ctx);
      return 'updated';
    }
  }
  await createRecord(rt, createRequest(plan, input), { ...ctx, idempotencyKey: rowKey(plan, rowNumber) });
  return 'created';
}

/** A row's create request, in the run's tenant. */
export function createRequest(plan: RunPlan, input: Message): Message {
  return { [recordFieldOf(plan.rt.resource)]: { ...input, crProcessId: plan.crProcessId } };
}

/** A row's idempotency key in an import (`import:<run>:<row>`); none in a dry run, whose writes are rolled back. */
export function rowKey(plan: RunPlan, rowNumber: number): string | undefined {
  return plan.mode === 'import' ? `import:${plan.runId}:${rowNumber}` : undefined;
}

/** A kept error in `lang`. */
export function renderError(error: Pick<RowError, 'messageKey' | 'messageParams'>, lang: Language): string {
  return translate(lang, error.messageKey as MessageKey, error.messageParams);
}
