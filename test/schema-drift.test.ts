/**
 * Entities and migrations state one fact twice (conventions: "Immich's CI fails when its entities
 * and its migrations drift apart"): for each service, a fresh database built by its migrations must
 * be what its declared entities describe, so that MikroORM has nothing left to migrate. A change to a
 * declaration without `npm run migration:create` fails here, listing the SQL the migration lacks.
 */
import test from 'ava';
import { pendingSchemaSql, SERVICES, withMigratedScratch } from '../scripts/lib/scratch-schema.ts';
import { withDatabase } from '../scripts/lib/pg-client.ts';
import { platform } from './helpers/platform.ts';

const server = withDatabase(platform.databaseUrl, 'postgres');

for (const service of SERVICES) {
  test(`${service}: the schema its migrations build is the schema its entities declare (migration:create finds no changes)`, async (t) => {
    const sql = await withMigratedScratch(service, server, pendingSchemaSql);
    t.is(sql, '', `${service}-svc's entities and migrations differ; run \`npm run migration:create -- ${service}\`. Missing:\n${sql}`);
  });
}
