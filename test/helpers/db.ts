import pg from 'pg';
import { platform } from './platform.ts';

/**
 * A connection of its own to the platform's database for the duration of `work`: for what a test
 * must see or do beneath the API (a row changed behind the service's back, a lock held).
 */
export async function withDb<T>(work: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: platform.databaseUrl });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

/** One statement on a connection of its own; its rows. */
export function sql<T = any>(text: string, params: unknown[] = []): Promise<T[]> {
  return withDb(async (db) => (await db.query(text, params)).rows as T[]);
}
