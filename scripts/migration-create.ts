/**
 * Writes a migration for one service: the difference between its declared entities and the schema
 * its existing migrations build. Runs against a scratch database on DATABASE_URL's server (default:
 * the local server) that it drops afterwards.
 *
 *   npm run migration:create -- bpm [name]
 */
import pg from 'pg';
import { createOrm } from '@platform/libs/db/orm.ts';

const [service, name] = process.argv.slice(2);
if (service !== 'core' && service !== 'bpm' && service !== 'dms') {
  console.error('usage: npm run migration:create -- core|bpm|dms [name]');
  process.exit(2);
}
const { SCHEMA, entities, migrationsDir } = (await import(`../${service}-svc/src/db.ts`)) as typeof import('../bpm-svc/src/db.ts');
const serverUrl = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const scratch = `migration_scratch_${Date.now()}`;
const admin = new pg.Client({ connectionString: serverUrl.href });
await admin.connect();
await admin.query(`CREATE DATABASE ${scratch}`);
try {
  const url = new URL(serverUrl);
  url.pathname = `/${scratch}`;
  const orm = await createOrm({ url: url.href, schema: SCHEMA, entities, migrationsDir });
  try {
    await orm.migrator.up();
    const result = await orm.migrator.create(migrationsDir, false, false, name);
    console.log(result.fileName ? `wrote ${result.fileName}` : 'no changes');
  } finally {
    await orm.close();
  }
} finally {
  await admin.query(`DROP DATABASE ${scratch} WITH (FORCE)`);
  await admin.end();
}
