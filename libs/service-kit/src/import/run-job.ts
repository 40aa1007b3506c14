/**
 * The job that runs an import or its dry run in the service's worker (docs/interface.md#import,
 * docs/adr/0157-importing-files-into-the-registry.md): `<service>.import`, sent on demand with the
 * run's id. It reads the run's file, then writes its rows chunk by chunk from where the run's
 * recorded progress says: a chunk's creates in one transaction (batch.ts), and what the batch
 * leaves (its rows after a refusal, updates by code) each row in a transaction of its own, a few
 * at a time; after each chunk it records the progress, counts and errors, reads the importer's
 * access again and whether the run was cancelled. A worker that dies mid-run leaves no half row
 * (a row is in one transaction); its job is retried once its heartbeat stops, and the run resumes
 * after its last recorded chunk, the rows written since replayed by their idempotency keys
 * instead of written twice (a batch finding a key claimed leaves its rows to that replay).
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import type { Resource } from '@platform/kit/resource/resource.ts';
import { importLimitsOf } from '@platform/kit/config/import-limits.ts';
import type { Row } from '../db/entity-schema.ts';
import { callScope } from '../auth/call-scope.ts';
import type { CallContext } from '../auth/caller.ts';
import type { ResourceRuntime } from '../crud/runtime.ts';
import { scopedFork } from '../db/tenant-scope.ts';
import { databasePoolsOf } from '../config/database-pools.ts';
import { defineJob, type JobDefinition } from '../jobs/job.ts';
import { importBatch } from './batch.ts';
import { codeColumnOf, firstRows, FIRST_ROW, importRow, type RowResult, type RunPlan } from './engine.ts';
import { importer } from './importer.ts';
import { parseFile } from './parse.ts';
import { ReferenceResolver } from './references.ts';
import { IMPORT_ERROR_ENTITY, IMPORT_RUN_ENTITY } from './run-entity.ts';

/** Rows between two records of a run's progress (and two reads of its importer's access and of a cancel), and of a batch. */
const CHUNK = 200;
/** Tries after the first: a worker that died, the database gone for a moment. */
const RETRIES = 5;
/** Rows written at once one by one: twice the worker's ORM pool (DATABASE_POOL_MAX, 2 by default), so a connection never waits for the next row's reading. */
const CONCURRENCY = 2 * databasePoolsOf(process.env, 'worker').orm;

export function importJobName(service: string): string {
  return `${service}.import`;
}

/**
 * @example
 * importJob('bpm', orm, runtimes, registry)
 */
export function importJob(
  service: 'core' | 'bpm' | 'dms',
  orm: MikroORM,
  runtimes: ReadonlyMap<string, ResourceRuntime>,
  registry: ReadonlyMap<string, Resource>,
): JobDefinition {
  return defineJob({
    name: importJobName(service),
    schedule: { onDemand: true },
    // a worker that died is found by its silence within seconds; the run resumes (retry)
    heartbeatSeconds: 10,
    retry: { limit: RETRIES, delaySeconds: 1 },
    timeoutSeconds: 6 * 3600,
    run: async ({ data, log, attempt }) => {
      const runId = Number((data as { runId?: unknown } | null)?.runId);
      if (!Number.isSafeInteger(runId)) return;
      await runImport(orm, runtimes, registry, runId).catch(async (error: unknown) => {
        const refId = randomUUID();
        log.error({ err: error, runId, refId, attempt }, 'import run failed');
        // the last try: the run ends FAILED, saying so, rather than staying RUNNING
        if (attempt >= RETRIES) await failRun(orm, runId, { messageKey: 'import.failed', messageParams: { refId } }).catch(() => undefined);
        throw error;
      });
    },
  });
}

async function runImport(orm: MikroORM, runtimes: ReadonlyMap<string, ResourceRuntime>, registry: ReadonlyMap<string, Resource>, runId: number): Promise<void> {
  // the run's own row is read and kept on the platform's path (the job names its tenant); its rows are written in the importer's scope
  const own = scopedFork(orm, { platform: 'job' });
  const run = (await own.findOne(IMPORT_RUN_ENTITY as never, { id: runId } as never, { populate: ['file'] as never })) as Row | null;
  if (!run || !['CHECKING', 'QUEUED', 'RUNNING'].includes(String(run.status))) return;
  const rt = runtimes.get(String(run.entity));
  const file = run.file as Buffer | null;
  if (!rt || !file) return finish(own, run, 'FAILED', { messageKey: 'import.notReadable', messageParams: {} });
  const mode = run.status === 'CHECKING' ? 'check' : 'import';
  if (mode === 'import') run.status = 'RUNNING';
  await own.flush();
  let rows: Awaited<ReturnType<typeof parseFile>>['rows'];
  try {
    ({ rows } = await parseFile(file, importLimitsOf()));
  } catch (error) {
    // read at upload, so only a limit lowered since can refuse it now
    if (error instanceof DomainError) return finish(own, run, 'FAILED', { messageKey: error.messageKey, messageParams: error.params });
    throw error;
  }
  const mapping = run.mapping as (string | null)[];
  const crProcessId = Number(run.crProcessId);
  const plan: RunPlan = {
    rt,
    crProcessId,
    runId,
    header: run.header as string[],
    mapping,
    updateByCode: Boolean(run.updateByCode),
    mode,
    references: new ReferenceResolver(crProcessId, registry),
    firstRowOfCode: firstRows(rows, codeColumnOf({ rt, mapping })),
  };
  const roles = [`${rt.resource.path}:write`, `${rt.resource.path}:read`];
  // the rows' errors are kept as message keys and rendered in the reader's language when read
  const lang = 'en';
  for (let start = Number(run.processed); start < rows.length; start += CHUNK) {
    await own.refresh(run);
    if (run.cancelRequested) return finish(own, run, 'CANCELLED');
    const caller = await importer(own, String(run.createdBy), crProcessId, roles, lang);
    if (!caller) return finish(own, run, 'FAILED', { messageKey: 'import.accessLost', messageParams: { role: roles[0] ?? '' } });
    const chunk = rows.slice(start, start + CHUNK);
    const contextOf = (): CallContext => ({ em: scopedFork(orm, callScope(caller)), caller, lang, projectCode: undefined });
    const outcomes = await importBatch(plan, contextOf(), chunk, start + FIRST_ROW);
    // the rows the batch left, one by one
    const left = outcomes.flatMap((outcome, index) => (outcome ? [] : [index]));
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let at = next++; at < left.length; at = next++) {
        const index = left[at] ?? 0;
        outcomes[index] = await importRow(plan, contextOf(), chunk[index] ?? [], start + index + FIRST_ROW);
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, left.length) }, worker));
    // every row answered by now, by the batch or alone
    await recordChunk(own, run, outcomes as RowResult[]);
  }
  await finish(own, run, mode === 'check' ? 'CHECKED' : 'DONE');
}

/** A chunk's progress, counts and errors, in one transaction: a resumed run starts after it. */
async function recordChunk(em: EntityManager, run: Record<string, unknown>, outcomes: readonly RowResult[]): Promise<void> {
  await em.transactional(async (tx) => {
    for (const { outcome, errors } of outcomes) {
      run[outcome] = Number(run[outcome]) + 1;
      for (const error of errors) tx.create(IMPORT_ERROR_ENTITY as never, { ...error, runId: run.id, crProcessId: run.crProcessId } as never);
    }
    run.processed = Number(run.processed) + outcomes.length;
    run.updatedAt = new Date();
    tx.persist(run);
  });
}

async function finish(
  em: EntityManager,
  run: Record<string, unknown>,
  status: 'CHECKED' | 'DONE' | 'FAILED' | 'CANCELLED',
  message?: { messageKey: string; messageParams: Record<string, string> },
): Promise<void> {
  Object.assign(run, { status, updatedAt: new Date(), ...message });
  // the file is kept for the import after a dry run, dropped once the run has ended
  if (status !== 'CHECKED') Object.assign(run, { file: null, finishedAt: new Date() });
  await em.flush();
}

/** Ends a run FAILED from outside its work (its job's last try failed). */
async function failRun(orm: MikroORM, runId: number, message: { messageKey: string; messageParams: Record<string, string> }): Promise<void> {
  const own = scopedFork(orm, { platform: 'job' });
  const run = (await own.findOne(IMPORT_RUN_ENTITY as never, { id: runId } as never)) as Row | null;
  if (run && ['CHECKING', 'QUEUED', 'RUNNING'].includes(String(run.status))) await finish(own, run, 'FAILED', message);
}
