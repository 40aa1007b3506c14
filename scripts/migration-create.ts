/**
 * Writes a migration for one service: the difference between its declared entities and the schema
 * its existing migrations build. Runs against a scratch database on DATABASE_URL's server (default:
 * the local server) that it drops afterwards. test/schema-drift.test.ts asks the same question and
 * expects no difference.
 *
 *   npm run migration:create -- bpm [name]
 */
import { isService, LOCAL_SERVER, withMigratedScratch } from './lib/scratch-schema.ts';

const [service, name] = process.argv.slice(2);
if (!isService(service)) {
  console.error('usage: npm run migration:create -- core|bpm|dms [name]');
  process.exit(2);
}
await withMigratedScratch(service, process.env.DATABASE_URL ?? LOCAL_SERVER, async (orm, migrationsDir) => {
  const result = await orm.migrator.create(migrationsDir, false, false, name);
  console.log(result.fileName ? `wrote ${result.fileName}` : 'no changes');
});
