/**
 * Hostile input is a 4xx with the error body, everywhere. Every route of the gateway — each
 * resource's CRUD set as it offers it and every hand-written route, from the tables the routers are
 * built from (gateway/src/routes/table.ts), so that a new route is fuzzed without a word here — gets
 * a corpus of hostile path parameters, query strings, headers and bodies (helpers/hostile-corpus.ts),
 * and every field of every resource gets the JSON types it must refuse.
 *
 * docs/interface.md#errors: "Every error body is {status: "ERROR", error_code, message}"; "SVC-SYS-5001 500
 * unexpected failure; logged as an exception entry": no hostile request may be one. So every answer
 * is below 500, every non-2xx carries the error body, no exception entry is written for any of them,
 * and the platform is still UP afterwards. The route corpus is sent twice: by a super user, and by a
 * user of one tenant holding a single role, whose requests take the paths a refusal takes (403 before
 * the body is read, the tenant checks) rather than those of a caller who may do everything. Multipart
 * framing is fuzz-multipart.test.ts's, the private ports fuzz-ports.test.ts's.
 */
import test from 'ava';
import { apiFields, isScalar, offers, RANGE_KINDS, visibleScalars, type FieldSpec, type Resource } from '@platform/kit/resource/resource.ts';
import { categoryOf } from '../gateway/src/http/path-category.ts';
import { registry } from '../gateway/src/registry.ts';
import type { RouteSpec } from '../gateway/src/routes/route.ts';
import { gatewayRoutes } from '../gateway/src/routes/table.ts';
import { withDb } from './helpers/db.ts';
import { adminSession, create, createAccount, freshTenant, login, unique, userWithRoles } from './helpers/factories.ts';
import { BODIES, HEADER_SETS, PATH_VALUES, QUERY_STRINGS, wrongValues } from './helpers/hostile-corpus.ts';
import { api, platform, type ApiResponse } from './helpers/platform.ts';
import { rawRequest } from './helpers/raw-http.ts';
import { keyPath, sampleOf } from './helpers/samples.ts';

/** The X-Project-Code of every request here but those that fuzz it: exception entries name it. */
const FUZZ_CODE = `FUZZ-${unique()}`;
const FUZZED_CODES = new Set([FUZZ_CODE, ...HEADER_SETS.flatMap((set) => set['x-project-code'] ?? [])]);
const PARALLEL = 12;
/** Path parameters a valid request would carry (no record has them: nothing is changed by them). */
const VALID_PARAMS: Record<string, string> = { sessionId: '00000000-0000-4000-8000-000000000000', refId: '00000000-0000-4000-8000-000000000000' };
const VALID_PARAM = '999999999';

interface Case {
  label: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** A 400 SVC-SYS-2001 naming this field is the one right answer (a wrong type of a declared field). */
  refusing?: string;
}

type Credentials = { token?: string; apiKey?: boolean };

const routes = gatewayRoutes(registry);

/** The route's path with each `:param` replaced, by `value` or a valid-looking one. */
function pathOf(route: RouteSpec, value?: string): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => value ?? VALID_PARAMS[name] ?? VALID_PARAM);
}

function routeCases(route: RouteSpec): Case[] {
  const method = route.method.toUpperCase();
  const path = pathOf(route);
  const label = (what: string) => `${method} ${route.path} ${what}`;
  const cases: Case[] = [];
  if (path !== route.path) {
    for (const value of PATH_VALUES) cases.push({ label: label(`path ${value.slice(0, 40)}`), method, path: pathOf(route, value), body: '{}' });
  }
  for (const query of QUERY_STRINGS) cases.push({ label: label(`?${query}`), method, path: `${path}?${query}`, body: '{}' });
  for (const headers of HEADER_SETS) cases.push({ label: label(JSON.stringify(headers).slice(0, 80)), method, path, headers, body: '{}' });
  for (const body of BODIES) cases.push({ label: label(`body ${String(body).slice(0, 60)}`), method, path, body });
  return cases;
}

/** Every field a client writes, with the wrong JSON types of its kind: create, update, filter. */
async function fieldCases(resource: Resource): Promise<Case[]> {
  const base = `/api/${resource.path}`;
  const sample = sampleOf(resource);
  const writable = Object.entries(apiFields(resource)).filter(
    ([name, spec]) => !(isScalar(spec) && spec.readOnly) && !['id', 'version', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy'].includes(name),
  );
  const cases: Case[] = [];
  const swap = (label: string, method: string, path: string, body: Record<string, unknown>, field: string) =>
    cases.push({ label: `${method} ${path} ${label}`, method, path, body: JSON.stringify(body), refusing: field });
  if (offers(resource, 'create')) {
    const valid = await sample.create(freshTenant());
    for (const [name, spec] of writable)
      for (const value of wrongValues(spec)) swap(`${name}: ${JSON.stringify(value)}`, 'POST', base, { ...valid, [name]: value }, name);
  }
  if (offers(resource, 'update')) {
    // a record made the platform's way where the resource has no create (dms-file: uploaded)
    const record = sample.existing ? await sample.existing(freshTenant()) : await create(resource.path, await sample.create(freshTenant()));
    const path = `${base}/${keyPath(resource, record)}`;
    const version: FieldSpec = { kind: 'int' };
    for (const [name, spec] of [...writable, ['version', version] as const]) {
      for (const value of wrongValues(spec)) swap(`${name}: ${JSON.stringify(value)}`, 'PUT', path, { version: record.version, [name]: value }, name);
    }
  }
  if (offers(resource, 'list')) {
    const filters = visibleScalars(resource).flatMap(([name, spec]) => [
      [name, spec] as const,
      ...(RANGE_KINDS.has(spec.kind) ? [[`${name}From`, spec] as const, [`${name}To`, spec] as const] : []),
    ]);
    for (const [name, spec] of filters) {
      for (const value of wrongValues(spec))
        swap(`filter.${name}: ${JSON.stringify(value)}`, 'POST', `${base}/list`, { filter: { crProcessId: 1, [name]: value } }, `filter.${name}`);
    }
  }
  return cases;
}

/** What is wrong with an answer, or undefined: below 500, the error body on every non-2xx. */
function problemOf(c: Case, res: ApiResponse): string | undefined {
  const said = `${c.label} → ${res.status} ${res.text.slice(0, 200)}`;
  if (c.refusing !== undefined) {
    const named = typeof res.body?.message === 'string' && res.body.message.includes(c.refusing);
    return res.status === 400 && res.body?.error_code === 'SVC-SYS-2001' && named ? undefined : `expected 400 SVC-SYS-2001 naming ${c.refusing}: ${said}`;
  }
  if (res.status >= 500 || res.status < 200 || (res.status >= 300 && res.status < 400)) return said;
  // a HEAD answer carries no body (RFC 9110 §9.3.2): its status is what it says
  if (c.method === 'HEAD') return undefined;
  if (res.status >= 400 && (res.body?.status !== 'ERROR' || !/^SVC-SYS-\d{4}$/.test(String(res.body?.error_code)) || typeof res.body?.message !== 'string')) {
    return `no error body: ${said}`;
  }
  return undefined;
}

async function credentialsFor(
  path: string,
  session: Credentials,
  user = { userCode: platform.adminUser, password: platform.adminPassword },
): Promise<Credentials> {
  const category = categoryOf(path.split('?')[0] ?? path);
  if (category === 'public') return {};
  if (category === 'api-key') return { apiKey: true };
  // logout ends the token it is called with: each case gets one of its own
  if (path.startsWith('/api/auth/logout') || path.startsWith('/api/auth/oidc/logout')) return { token: (await login(user.userCode, user.password)).token };
  return session;
}

/** Runs `work` over `items`, `PARALLEL` at a time. */
async function inParallel<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

/** Exception entries written since `from` under one of the fuzzed project codes. */
async function exceptionsSince(from: string): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  for (let page = 0; ; page++) {
    const res = await api('POST', '/api/logs/exceptions/list', { apiKey: true, body: { page, size: 500, filter: { createdAtFrom: from } } });
    if (res.status !== 200) throw new Error(`exception list: ${res.status} ${res.text}`);
    found.push(...res.body.content.filter((entry: { projectCode?: string }) => FUZZED_CODES.has(entry.projectCode ?? '')));
    if (res.body.last) return found;
  }
}

/**
 * One exception entry written by each service (core-svc's own recorder, bpm-svc's and dms-svc's
 * through core-svc), each a real database failure of a create that only this marker's name meets,
 * sent under `projectCode`; resolves with the services whose entries are listed (10 s at most).
 * The gateway's own entries need no marker: it records one only for a 5xx it answers itself,
 * which problemOf already refuses.
 */
async function markerEntries(projectCode: string): Promise<string[]> {
  const marker = `fuzz_mark_${unique()}`;
  const { token } = await adminSession();
  const tenant = freshTenant();
  const creates = [
    { table: 'core.account', column: 'account_name', path: '/api/account', body: { accountNo: marker, accountName: marker, crProcessId: tenant } },
    {
      table: 'bpm.business_partner',
      column: 'partner_name',
      path: '/api/business-partner',
      body: { crProcessId: tenant, partnerCode: marker, partnerName: marker, partnerType: 'CUSTOMER' },
    },
    { table: 'dms.dms_category', column: 'category_name', path: '/api/dms-category', body: { crProcessId: tenant, categoryName: marker } },
  ];
  const refIds: string[] = [];
  await withDb(async (db) => {
    try {
      for (const { table, column } of creates) {
        const fn = `${table.split('.')[0]}.${marker}`;
        await db.query(`create function ${fn}() returns trigger language plpgsql as $$
          begin if new.${column} = '${marker}' then raise exception 'fuzz marker'; end if; return new; end $$`);
        await db.query(`create trigger ${marker} before insert on ${table} for each row execute function ${fn}()`);
      }
      for (const { path, body } of creates) {
        const res = await api('POST', path, { token, headers: { 'x-project-code': projectCode }, body });
        if (res.status !== 500) throw new Error(`marker ${path}: ${res.status} ${res.text}`);
        refIds.push(res.body.refId);
      }
    } finally {
      for (const { table } of creates) {
        await db.query(`drop trigger if exists ${marker} on ${table}`);
        await db.query(`drop function if exists ${table.split('.')[0]}.${marker}()`);
      }
    }
  });
  const listed = new Map<string, string>();
  for (const deadline = Date.now() + 10_000; listed.size < refIds.length && Date.now() < deadline;) {
    for (const refId of refIds.filter((id) => !listed.has(id))) {
      const entry = await api('GET', `/api/logs/exceptions/${refId}`, { apiKey: true });
      if (entry.status === 200 && entry.body.projectCode === projectCode) listed.set(refId, entry.body.service);
    }
    if (listed.size < refIds.length) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return [...listed.values()].sort();
}

/** Sends `cases` with `session` where a route wants a session; what was wrong, and the answers by status. */
async function sendCorpus(
  cases: readonly Case[],
  session: Credentials,
  asUser?: { userCode: string; password: string },
): Promise<{ problems: string[]; statuses: Map<number, number> }> {
  const problems: string[] = [];
  const statuses = new Map<number, number>();
  await inParallel(cases, async (c) => {
    const credentials = await credentialsFor(c.path, session, asUser);
    const headers = { 'x-project-code': FUZZ_CODE, ...c.headers };
    const res = await rawRequest(c.method, c.path, { ...credentials, headers, ...(c.body === undefined ? {} : { body: c.body }) }).catch((error: unknown) => ({
      status: 0,
      headers: new Headers(),
      body: undefined,
      text: `no answer: ${String(error)}`,
    }));
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    const problem = problemOf(c, res);
    if (problem) problems.push(problem);
  });
  return { problems, statuses };
}

test('every route answers hostile input with a 4xx and the error body, logs no exception and stays UP', async (t) => {
  const from = new Date(Date.now() - 1000).toISOString();
  // a session of the bootstrap super user of its own: the shared one must outlive this walk
  const session = { token: (await login(platform.adminUser, platform.adminPassword)).token };
  const cases = [...routes.flatMap(routeCases), ...(await Promise.all(registry.map(fieldCases))).flat()];
  const { problems, statuses } = await sendCorpus(cases, session, { userCode: platform.adminUser, password: platform.adminPassword });
  t.log(`${cases.length} requests over ${routes.length} routes; answers by status: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
  t.deepEqual(problems.slice(0, 40), [], `${problems.length} of ${cases.length} answers were wrong`);

  // the same routes from a user of one tenant holding one role: refusals, not a super user's paths
  const clerk = await userWithRoles(await createAccount(), ['branch:read']);
  const routeCorpus = routes.flatMap(routeCases);
  const few = await sendCorpus(routeCorpus, { token: clerk.token }, clerk);
  t.log(`a user with one role: ${routeCorpus.length} requests; answers by status: ${JSON.stringify(Object.fromEntries([...few.statuses].sort()))}`);
  t.deepEqual(few.problems.slice(0, 40), [], `${few.problems.length} of ${routeCorpus.length} answers to a user with one role were wrong`);
  // the control: the role it holds serves it, so the refusals above are of a live user's session
  t.true((few.statuses.get(403) ?? 0) > 0, 'a user with one role is refused somewhere');

  // the recorders send their entries on in the background: a marker entry of each service, recorded
  // after every answer above, is waited for; the fuzzed requests' entries were handed to the same
  // recorders before their answers, so once the markers are listed theirs would be too
  t.deepEqual(await markerEntries(`${FUZZ_CODE}-MARK`), ['bpm', 'core', 'dms']);
  const logged = await exceptionsSince(from);
  t.deepEqual(
    logged.map((entry) => `${entry.method} ${entry.path}: ${entry.errorCode} ${String(entry.message).slice(0, 120)}`),
    [],
  );
  const health = await api('GET', '/actuator/health');
  t.is(health.status, 200, health.text);
  t.is(health.body.status, 'UP');
});

test('the fuzzed routes are every route: each resource set as it offers it, and the hand-written ones', (t) => {
  // a guard on the walk itself, so that it cannot pass by walking nothing
  const listed = new Set(routes.map((route) => `${route.method} ${route.path}`));
  for (const resource of registry) {
    t.true(listed.has(`get /api/${resource.path}/:key`), resource.path);
    t.is(listed.has(`post /api/${resource.path}`), offers(resource, 'create'), resource.path);
  }
  for (const route of [
    'post /api/auth/login',
    'post /api/auth/logout',
    'get /api/session/history/list',
    'post /api/logs/exceptions/list',
    'get /actuator/health',
    'get /api/branch/by-partner/:id',
  ]) {
    t.true(listed.has(route), route);
  }
});
