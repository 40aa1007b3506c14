/**
 * Reads the database behind the platform for rows whose references break docs/interface.md#records: a `...Id`
 * that names no record of the row's own tenant (or, with `within`, not one of the row's own partner
 * or contract), a userCode that names no user-info. Walks the
 * declarations, so a new reference is audited without a change here.
 */
import pg from 'pg';
import { isScalar, tableOf } from '@platform/kit/resource/resource.ts';
import { snake } from '@platform/service-kit/db/entity-schema.ts';
import { registry } from '../../gateway/src/registry.ts';
import { platform } from './platform.ts';

/** `"<path>.<field>: <n> rows"` for every reference some row breaks; empty when none does. */
export async function brokenReferences(): Promise<string[]> {
  const byPath = new Map(registry.map((resource) => [resource.path, resource]));
  const queries: [string, string][] = [];
  for (const resource of registry) {
    const table = `${resource.service}.${tableOf(resource)}`;
    for (const [field, spec] of Object.entries(resource.fields)) {
      if (!isScalar(spec)) continue;
      const column = snake(field);
      const target = byPath.get(spec.references ?? spec.referencesKey?.resource ?? '');
      if (!target) continue;
      const targetTable = `${target.service}.${tableOf(target)}`;
      const within = spec.within ? ` and t.${snake(spec.within)} = r.${snake(spec.within)}` : '';
      const match = spec.references
        ? `t.id = r.${column} and t.cr_process_id = r.cr_process_id${within}`
        : `t.${snake(spec.referencesKey?.key ?? 'id')} = r.${column}`;
      queries.push([
        `${resource.path}.${field}`,
        `select count(*)::int as n from ${table} r where r.${column} is not null and not exists (select 1 from ${targetTable} t where ${match})`,
      ]);
    }
  }
  const db = new pg.Client({ connectionString: platform.databaseUrl });
  await db.connect();
  try {
    const broken: string[] = [];
    for (const [name, sql] of queries) {
      const { rows } = await db.query<{ n: number }>(sql);
      const n = rows[0]?.n ?? 0;
      if (n > 0) broken.push(`${name}: ${n} rows`);
    }
    return broken;
  } finally {
    await db.end();
  }
}
