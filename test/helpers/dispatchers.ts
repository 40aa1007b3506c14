import type { ExecutionContext } from 'ava';
import pg from 'pg';
import { platform } from './platform.ts';

/**
 * Which webhook dispatchers run while a test counts what one of them does: the suite's core-svc
 * alone, or with a test's own core-svc beside it. A dispatcher's limits are per process
 * (docs/adr/0082-webhook-figures-and-fairness-between.md: a tenant's share of the slots), so a test that counts them holds
 * the suite's dispatcher alone (`soleDispatcher`, shared: such tests run side by side), and a test
 * that starts a core-svc of its own holds `extraDispatcher` (exclusive) until it stops it. A session
 * advisory lock on a connection of the test's own, released at the test's teardown.
 */
const LOCK = "hashtext('test:webhook-dispatchers')";

async function hold(t: ExecutionContext, statement: string): Promise<void> {
  const db = new pg.Client({ connectionString: platform.databaseUrl });
  await db.connect();
  t.teardown(() => db.end());
  await db.query(statement);
}

/** Until the test ends, no other core-svc than the suite's dispatches webhooks. */
export function soleDispatcher(t: ExecutionContext): Promise<void> {
  return hold(t, `select pg_advisory_lock_shared(${LOCK})`);
}

/** Until the test ends, no test that counts the suite's dispatcher alone runs. */
export function extraDispatcher(t: ExecutionContext): Promise<void> {
  return hold(t, `select pg_advisory_lock(${LOCK})`);
}
