/**
 * Row-level security as the second wall (docs/adr/0151-row-level-security-the-second-wall.md):
 * "every tenant-scoped table has a policy on its tenant column; the services connect as a role that
 * is subject to the policies (not the owner) and set the caller's tenants per transaction". Tested
 * beneath the API, on the services' own connection (the platform's DATABASE_URL): a query that
 * forgets its tenant filter returns nothing of another tenant, on every entity of the registry; a
 * connection without the setting sees no tenant rows. That the role is subject to the policies at
 * all (no owner, superuser or BYPASSRLS) is test/database-roles.test.ts's. Beneath decisions.md §2: "The services
 * enforce this themselves, not only the gateway."
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import pg from 'pg';
import { ROOT_DIR } from '@platform/kit/config/root-dir.ts';
import { tsFiles } from './helpers/module-specifiers.ts';
import { keyOf, offers, tableOf, type Resource } from '@platform/kit/resource/resource.ts';
import { registry } from '../gateway/src/registry.ts';
import { adminSession, createAccount, freshTenant } from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';
import { sql } from './helpers/db.ts';
import { keyPath, sampleOf } from './helpers/samples.ts';
import { scrape } from './helpers/metrics.ts';
import { ConfigError } from '@platform/kit/config/config-error.ts';
import { rowSecurityOf } from '@platform/service-kit/config/row-security.ts';
import { PLATFORM_PURPOSES, scopeSettings, type Scope } from '@platform/service-kit/db/tenant-scope.ts';

const SCHEMAS = ['core', 'bpm', 'dms'];

/** A connection as the services make them: DATABASE_URL, the role the policies apply to. */
async function asServices<T>(work: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: platform.env.DATABASE_URL });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

/** The rows `text` returns in one transaction in `scope` (its settings as the services make them). */
async function inScope<T>(db: pg.Client, scope: Scope, text: string, values: unknown[] = []): Promise<T[]> {
  await db.query('begin');
  try {
    for (const [name, value] of Object.entries(scopeSettings(scope))) await db.query('select set_config($1, $2, true)', [name, value]);
    return (await db.query(text, values)).rows as T[];
  } finally {
    await db.query('commit');
  }
}

/** Every base table of the three schemas with a tenant column. */
function tenantTables(): Promise<{ name: string; rls: boolean; policy: boolean }[]> {
  return sql(
    `select c.table_schema || '.' || c.table_name as name, k.relrowsecurity as rls,
            exists (select 1 from pg_policies p where p.schemaname = c.table_schema and p.tablename = c.table_name and p.policyname = 'tenant_wall') as policy
       from information_schema.columns c
       join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
       join pg_class k on k.oid = (quote_ident(c.table_schema) || '.' || quote_ident(c.table_name))::regclass
      where c.column_name = 'cr_process_id' and c.table_schema = any($1)
      order by 1`,
    [SCHEMAS],
  );
}

test('every table of core, bpm and dms with a cr_process_id has row-level security on and the tenant_wall policy', async (t) => {
  const tables = await tenantTables();
  t.true(tables.length >= 30, `${tables.length} tenant tables`);
  t.deepEqual(
    tables.filter((table) => !table.rls || !table.policy).map((table) => table.name),
    [],
    'a tenant table without its policy',
  );
});

test("a scope names one tenant or all: two are refused, and a scope of none sees no tenant's row in any table", async (t) => {
  // the policy is a range of tenant ids (docs/adr/0158-the-tenant-wall-as-an-index-condition.md), which cannot name two tenants and nothing between them
  t.throws(() => scopeSettings({ tenants: [1, 3] } as unknown as Scope), { message: /at most one/ });
  const tables = await tenantTables();
  const seen = await asServices(async (db) => {
    const counts: Record<string, number> = {};
    for (const { name } of tables) counts[name] = Number((await inScope<{ count: string }>(db, { tenants: [] }, `select count(*) from ${name}`))[0]?.count);
    return counts;
  });
  t.deepEqual(
    Object.entries(seen).filter(([, count]) => count > 0),
    [],
    'rows seen in a scope of no tenant',
  );
});

test("a connection of the services' role that set no scope sees no tenant's row in any table", async (t) => {
  const tables = await tenantTables();
  const seen = await asServices(async (db) => {
    const counts: Record<string, number> = {};
    for (const { name } of tables) counts[name] = Number((await db.query(`select count(*) from ${name}`)).rows[0].count);
    return counts;
  });
  t.deepEqual(
    Object.entries(seen).filter(([, count]) => count > 0),
    [],
    'rows seen without a scope',
  );
  // the same tables hold rows (the accounts, at least), which the owner sees
  const [accounts] = await sql<{ count: string }>('select count(*) from core.account');
  t.true(Number(accounts?.count) > 0);
});

/** A record of `resource` made in a tenant of its own, as the admin makes it; its tenant and key. */
async function recordIn(resource: Resource, token: string): Promise<{ crProcessId: number; key: string }> {
  const sample = sampleOf(resource);
  if (sample.existing) {
    const { crProcessId } = await createAccount();
    const record = await sample.existing(crProcessId);
    return { crProcessId, key: decodeURIComponent(keyPath(resource, record)) };
  }
  const crProcessId = sample.tenantRecord ? freshTenant() : (await createAccount()).crProcessId;
  const created = await api('POST', `/api/${resource.path}`, { token, body: await sample.create(crProcessId) });
  if (created.status !== 200) throw new Error(`${resource.path}: create answered ${created.status} ${created.text}`);
  return { crProcessId: Number(created.body.crProcessId ?? crProcessId), key: decodeURIComponent(keyPath(resource, created.body)) };
}

for (const resource of registry) {
  if (!offers(resource, 'create') && !sampleOf(resource).existing) continue;
  test(`${resource.path}: a query that forgets its tenant filter sees its own tenant's record and not another's`, async (t) => {
    const { token } = await adminSession();
    const [mine, theirs] = [await recordIn(resource, token), await recordIn(resource, token)];
    t.not(mine.crProcessId, theirs.crProcessId);
    const table = `"${resource.service}"."${tableOf(resource)}"`;
    const key = `"${keyOf(resource).replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}"`;
    // no where clause at all: the policy alone decides
    const rows = await asServices((db) =>
      inScope<{ tenant: string; key: string }>(db, { tenants: [mine.crProcessId] }, `select cr_process_id as tenant, ${key}::text as key from ${table}`),
    );
    t.deepEqual([...new Set(rows.map((row) => Number(row.tenant)))], [mine.crProcessId], "only the scope's tenant");
    t.true(
      rows.some((row) => row.key === mine.key),
      'its own record',
    );
    t.false(
      rows.some((row) => row.key === theirs.key),
      "another tenant's record",
    );
    // the platform's own path sees both
    const all = await asServices((db) =>
      inScope<{ key: string }>(db, { platform: 'job' }, `select ${key}::text as key from ${table} where ${key}::text = any($1)`, [[mine.key, theirs.key]]),
    );
    t.is(all.length, 2);
  });
}

test("each path past the wall is counted under its purpose: a login is an internal call, a super user's get a super-user one", async (t) => {
  const before = await scrape(`http://${platform.metrics['core-svc']}`);
  const { token } = await adminSession();
  const account = await createAccount();
  const accounts = registry.find((resource) => resource.path === 'account')!;
  t.is((await api('GET', `/api/account/${keyPath(accounts, account)}`, { token })).status, 200);
  const after = await scrape(`http://${platform.metrics['core-svc']}`);
  const grew = (purpose: string) => after.sum('db_all_tenants_scopes_total', { purpose }) - before.sum('db_all_tenants_scopes_total', { purpose });
  t.true(grew('internal-call') > 0, 'the login');
  t.true(grew('super-user') > 0, "the admin's create and get");
  for (const { labels } of after.matching('db_all_tenants_scopes_total'))
    t.true(labels.purpose! in PLATFORM_PURPOSES, `${labels.purpose} is a declared purpose`);
});

test('DATABASE_ROW_SECURITY is on by default, off only outside production, and nothing else', (t) => {
  t.is(rowSecurityOf({}), 'on');
  t.is(rowSecurityOf({ DATABASE_ROW_SECURITY: 'off', APP_ENV: 'development' }), 'off');
  t.throws(() => rowSecurityOf({ DATABASE_ROW_SECURITY: 'off', APP_ENV: 'production' }), { instanceOf: ConfigError, message: /production refuses it/ });
  t.throws(() => rowSecurityOf({ DATABASE_ROW_SECURITY: 'no' }), { instanceOf: ConfigError, message: /must be on or off/ });
});

test("no service module forks the ORM's EntityManager but db/tenant-scope.ts: every unit of work is made with its scope", (t) => {
  const home = join(ROOT_DIR, 'libs/service-kit/src/db/tenant-scope.ts');
  const forking = ['core-svc/src', 'bpm-svc/src', 'dms-svc/src', 'libs/service-kit/src']
    .flatMap((dir) => tsFiles(join(ROOT_DIR, dir)))
    .filter((file) => file !== home && /\.fork\(/.test(readFileSync(file, 'utf8')))
    .map((file) => relative(ROOT_DIR, file));
  t.deepEqual(forking, [], 'a fork outside scopedFork runs in no scope: it sees no tenant row');
  t.regex(readFileSync(home, 'utf8'), /\.fork\(/, 'scopedFork forks');
});
