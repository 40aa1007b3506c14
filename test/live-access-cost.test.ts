/**
 * docs/adr/0062-a-kept-live-access-and-its-access.md: a call whose live access the
 * service keeps reads the access stamp alone, a one-row table, and a get reads it in the same
 * statement as its row. PostgreSQL's plans of the statements the services send (their texts taken
 * from libs/service-kit/src/auth/access.ts and libs/service-kit/src/crud/key-read.ts, not copied) show what that costs: the
 * stamp's table (its shards, one page), and for a get the row's index, and no other table; the services' access
 * reader, run here on a connection of its own, shows which calls take that path.
 */
import test from 'ava';
import { createOrm } from '@platform/service-kit/db/orm.ts';
import { accessReader, STAMP_CHECK, withAccess, type ReadAlong } from '@platform/service-kit/auth/access.ts';
import { readAlong } from '@platform/service-kit/crud/key-read.ts';
import { resourceRuntime } from '@platform/service-kit/crud/runtime.ts';
import { entities, migrationsDir, schemas, SCHEMA } from '../bpm-svc/src/db.ts';
import { STAMP_SHARDS } from '../core-svc/src/access-stamp.ts';
import { branch } from '@platform/contracts/bpm/branch.ts';
import { createAccount, createBranch, createPartner, userWithRoles } from './helpers/factories.ts';
import { sql, withDb } from './helpers/db.ts';
import { platform } from './helpers/platform.ts';
import { claimsOf } from './helpers/tokens.ts';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Schema?: string;
  Plans?: PlanNode[];
}

/** Every node of a plan that reads a relation: `<node type> <schema>.<relation>`. */
function scans(node: PlanNode): string[] {
  const own = node['Relation Name'] ? [`${node['Node Type']} ${node.Schema}.${node['Relation Name']}`] : [];
  return [...own, ...(node.Plans ?? []).flatMap(scans)];
}

/** The generic plan (as a named statement gets once it is cached) of `text` run with `values`. */
async function planOf(text: string, values: unknown[]): Promise<string[]> {
  return withDb(async (db) => {
    await db.query('set plan_cache_mode = force_generic_plan');
    await db.query(`prepare cost_probe as ${text}`);
    const literals = values.map((value) => (typeof value === 'boolean' || typeof value === 'number' ? String(value) : `'${String(value)}'`));
    const [row] = (
      await db.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `explain (format json, verbose) execute cost_probe${literals.length ? `(${literals.join(', ')})` : ''}`,
      )
    ).rows;
    return scans(row!['QUERY PLAN'][0].Plan);
  });
}

/** The read along of a branch, as bpm-svc builds it from its entities. */
async function branchAlong(id: number): Promise<ReadAlong> {
  const orm = await createOrm({ url: platform.databaseUrl, schema: SCHEMA, entities, migrationsDir, poolSize: 1 });
  try {
    const along = readAlong(resourceRuntime(schemas, branch), orm.em.fork(), id);
    if (!along) throw new Error('no read along for a branch key');
    return along;
  } finally {
    await orm.close();
  }
}

test('the check of a kept access reads one table, core.access_stamp: the sum of its shards, one page', async (t) => {
  t.deepEqual(await planOf(STAMP_CHECK.text, []), ['Seq Scan core.access_stamp']);
  const [row] = await sql<{ shards: string }>('select count(*) as shards from core.access_stamp');
  t.is(Number(row!.shards), STAMP_SHARDS);
});

test("a get whose access is kept reads the stamp and its row by the row's index, and no other table", async (t) => {
  const along = await branchAlong(1);
  const { check, full } = withAccess(along);
  t.deepEqual((await planOf(check.text, [...along.values, false, 1])).sort(), ['Index Scan bpm.branch', 'Seq Scan core.access_stamp']);
  // the full read, for contrast: the user, the session and the views' tables
  const fullScans = await planOf(full.text, [...along.values, 'u', '00000000-0000-0000-0000-000000000000', 0, 1, '{branch:read}']);
  t.true(fullScans.some((scan) => scan.endsWith('core.session_log')) && fullScans.some((scan) => scan.endsWith('core.user_info')), fullScans.join(', '));
});

test("a caller's next call is served by the stamp's check alone while nothing it depends on changed", async (t) => {
  const account = await createAccount();
  const partner = await createPartner(account.crProcessId);
  const row = await createBranch(account.crProcessId, partner.id);
  const user = await userWithRoles(account, ['branch:read']);
  const claims = claimsOf(user.token) as { userCode: string; sid: string; tokenVersion: number; crProcessId: number };
  const along = await branchAlong(row.id);
  const sent: string[][] = [];
  await withDb(async (db) => {
    const read = accessReader(async (statement, values) => {
      sent.at(-1)!.push(statement.name);
      return (await db.query({ ...statement, values })).rows;
    });
    for (let i = 0; i < 20; i++) {
      sent.push([]);
      const live = await read(claims, { roles: new Set(['branch:read']), along });
      t.true(live?.access.roles.has('branch:read') && live.along?.id === String(row.id), `call ${i}`);
    }
  });
  const { check, full } = withAccess(along);
  t.deepEqual(sent[0], [full.name], 'the first call reads the access in full');
  // other tests' changes move the stamp too, and a call that finds it moved reads the access again
  for (const names of sent.slice(1))
    t.true(
      [[check.name], [check.name, full.name]].some((path) => path.join() === names.join()),
      names.join(),
    );
  t.true(
    sent.some((names) => names.join() === check.name),
    'some calls read the stamp alone',
  );
});
