/**
 * "References (...Id) must name a record of the same tenant" (docs/interface.md#records), kept by the database
 * for every reference field of every service
 * (docs/adr/0027-the-database-keeps-the-references.md): walks the registry, and for each `...Id` field finds its same-tenant foreign key in
 * the platform database's catalog — (cr_process_id, <field>) → (cr_process_id, id) of the declared
 * target, another service's schema included — or the declaration's reason for having none
 * (`notReference`). A reference field declared without either fails here.
 */
import test from 'ava';
import { allFields, isScalar, tableOf, type Resource, type ScalarField } from '@platform/kit/resource/resource.ts';
import { foreignKeyName, snake } from '@platform/service-kit/db/entity-schema.ts';
import { registry } from '../gateway/src/registry.ts';
import { sql } from './helpers/db.ts';

interface ForeignKey {
  name: string;
  target: string;
  columns: string[];
  referenced: string[];
}

const FOREIGN_KEYS = `
  select c.conname as name, tn.nspname || '.' || t.relname as target,
    array(select a.attname::text from unnest(c.conkey) with ordinality k(n, i)
      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.n order by k.i) as columns,
    array(select a.attname::text from unnest(c.confkey) with ordinality k(n, i)
      join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.n order by k.i) as referenced
  from pg_constraint c
  join pg_class r on r.oid = c.conrelid join pg_namespace rn on rn.oid = r.relnamespace
  join pg_class t on t.oid = c.confrelid join pg_namespace tn on tn.oid = t.relnamespace
  where c.contype = 'f' and rn.nspname = $1 and r.relname = $2`;

/** The `...Id` fields that name a record (id and crProcessId are the record's own). */
function idFields(resource: Resource): [string, ScalarField][] {
  return Object.entries(allFields(resource)).filter(
    (entry): entry is [string, ScalarField] => /Id$/.test(entry[0]) && entry[0] !== 'crProcessId' && isScalar(entry[1]),
  );
}

/** Column pairs of a key, referencing → referenced, as `a→b` in key order. */
function pairs(columns: readonly string[], referenced: readonly string[]): string[] {
  return columns.map((column, i) => `${column}→${referenced[i] ?? '?'}`);
}

test('every ...Id field of every resource has its same-tenant foreign key in the database, or a declared reason for none', async (t) => {
  let checked = 0;
  for (const resource of registry) {
    const fields = idFields(resource);
    if (fields.length === 0) continue;
    const keys = await sql<ForeignKey>(FOREIGN_KEYS, [resource.service, tableOf(resource)]);
    for (const [field, spec] of fields) {
      const where = `${resource.service}.${resource.path}.${field}`;
      checked += 1;
      if (spec.references === undefined) {
        t.true(typeof spec.notReference === 'string' && spec.notReference.trim().length > 10, `${where}: neither references nor a notReference reason`);
        t.false(
          keys.some((key) => key.columns.includes(snake(field))),
          `${where}: declared notReference, yet a foreign key covers its column`,
        );
        continue;
      }
      t.is(spec.notReference, undefined, `${where}: both references and notReference`);
      const service = spec.referencesService ?? resource.service;
      const target = registry.find((other) => other.path === spec.references && other.service === service);
      if (!target) {
        t.fail(`${where}: references ${service}'s ${spec.references}, which is not in the registry`);
        continue;
      }
      const key = keys.find((candidate) => candidate.name === foreignKeyName(resource, field));
      if (!key) {
        t.fail(`${where}: no foreign key ${foreignKeyName(resource, field)} in the database`);
        continue;
      }
      t.is(key.target, `${target.service}.${tableOf(target)}`, `${where}: the key's target`);
      const expected = ['cr_process_id→cr_process_id', ...(spec.within ? [`${snake(spec.within)}→${snake(spec.within)}`] : []), `${snake(field)}→id`];
      t.deepEqual(pairs(key.columns, key.referenced).sort(), expected.sort(), `${where}: the key's columns`);
    }
  }
  // the walk saw the fields the review named: the partner's country and city, and the exemptions
  t.true(checked >= 20, `checked ${checked} fields`);
});

test("the partner's countryId and cityId cross into core's schema: keys to core.country and core.city (within the country)", async (t) => {
  const keys = await sql<ForeignKey>(FOREIGN_KEYS, ['bpm', 'business_partner']);
  t.like(
    keys.find((key) => key.name === 'business_partner_country_id_foreign'),
    { target: 'core.country', columns: ['cr_process_id', 'country_id'], referenced: ['cr_process_id', 'id'] },
  );
  t.like(
    keys.find((key) => key.name === 'business_partner_city_id_foreign'),
    { target: 'core.city', columns: ['cr_process_id', 'country_id', 'city_id'], referenced: ['cr_process_id', 'country_id', 'id'] },
  );
});
