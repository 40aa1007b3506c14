/**
 * The API describes itself: GET /api/docs/openapi.json is an OpenAPI 3.1 document generated from the
 * route tables and the resource declarations, and GET /api/docs an interactive page over it whose
 * scripts and styles the gateway serves itself (no CDN).
 *
 * Routes and the document are two places that state one fact (conventions: "a check where there
 * are two"): every route of `gatewayRoutes(registry)` must be documented, and every documented
 * operation routed — called with the credentials its `security` names, none answers 404
 * SVC-SYS-4001 "No such path", and each answers a status the document lists for it.
 */
import test from 'ava';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { OpenAPIObject, OperationObject, ParameterObject, SchemaObject } from 'openapi3-ts/oas31';
import { keyOf, offers } from '@platform/kit/resource/resource.ts';
import { registry } from '../gateway/src/registry.ts';
import { gatewayRoutes } from '../gateway/src/routes/table.ts';
import { adminSession, createAccount, login } from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';
import { keyPath, sampleRecord } from './helpers/samples.ts';

const METHODS = ['get', 'post', 'put', 'delete', 'patch', 'head', 'options'] as const;
/** Path parameter values no record has (a made-up id answers 404 "Record not found", not "No such path"). */
const MADE_UP: Record<string, string> = { integer: '999999999', uuid: '00000000-0000-4000-8000-000000000000', string: 'NO-SUCH-KEY' };

async function served(): Promise<OpenAPIObject> {
  const res = await api('GET', '/api/docs/openapi.json');
  if (res.status !== 200) throw new Error(`GET /api/docs/openapi.json: ${res.status} ${res.text}`);
  return res.body as OpenAPIObject;
}

interface Documented {
  method: (typeof METHODS)[number];
  path: string;
  operation: OperationObject;
}

function operationsOf(document: OpenAPIObject): Documented[] {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    METHODS.flatMap((method) => (item[method] ? [{ method, path, operation: item[method] as OperationObject }] : [])),
  );
}

/** A request path for the operation: each `{param}` its first enum value, else a made-up key of its type. */
function concretePath({ path, operation }: Documented): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const parameter = (operation.parameters ?? []).find((p): p is ParameterObject => 'name' in p && p.name === name && p.in === 'path');
    const schema = (parameter?.schema ?? {}) as SchemaObject;
    if (schema.enum) return String(schema.enum[0]);
    return MADE_UP[schema.format === 'uuid' ? 'uuid' : String(schema.type)] ?? MADE_UP.string!;
  });
}

test('GET /api/docs/openapi.json is a valid OpenAPI 3.1 document, served without credentials', async (t) => {
  const res = await api('GET', '/api/docs/openapi.json');
  t.is(res.status, 200, res.text.slice(0, 300));
  t.regex(res.headers.get('content-type') ?? '', /^application\/json/);
  t.regex(String(res.body.openapi), /^3\.1\./);
  const result = await new Validator().validate(res.body as Parameters<Validator['validate']>[0]);
  t.deepEqual(result, { valid: true }, JSON.stringify(result.errors, null, 2)?.slice(0, 3000));
});

test('the docs paths are public and counted on the public tier, like /api/health', async (t) => {
  for (const path of ['/api/docs', '/api/docs/openapi.json']) {
    const res = await api('GET', path);
    t.is(res.status, 200, path);
    t.is(res.headers.get('ratelimit-limit'), platform.env.RATE_LIMIT_PUBLIC ?? '', path);
  }
});

test('every route of the gateway is documented, and every documented operation is a route', async (t) => {
  const document = await served();
  const routes = gatewayRoutes(registry);
  const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
  const routed = routes.filter((route) => !route.notFoundOnly).map((route) => key(route.method, route.path.replace(/:(\w+)/g, '{$1}')));
  const documented = operationsOf(document).map(({ method, path }) => key(method, path));
  const undocumented = routed.filter((route) => !documented.includes(route));
  const unrouted = documented.filter((operation) => !routed.includes(operation));
  t.deepEqual({ undocumented, unrouted }, { undocumented: [], unrouted: [] });
  t.is(documented.length, new Set(documented).size, 'each operation once');
  // a guard on the comparison itself: it covers every resource's set and the hand-written tables
  for (const resource of registry) {
    t.true(documented.includes(`GET /api/${resource.path}/{key}`), resource.path);
    t.is(documented.includes(`GET /api/${resource.path}/stats`), offers(resource, 'stats'), resource.path);
  }
  for (const path of ['POST /api/auth/login', 'GET /api/session/history/list', 'GET /api/branch/by-partner/{id}', 'GET /api/docs'])
    t.true(documented.includes(path), path);
});

test('every documented operation is routed: called with the credentials it names, none answers 404 "No such path", each a documented status', async (t) => {
  const document = await served();
  const { token } = await adminSession();
  const problems: string[] = [];
  for (const documented of operationsOf(document)) {
    const { method, path, operation } = documented;
    const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
    // logout ends the token it is called with: it gets a session of its own
    const bearer = schemes.includes('bearer')
      ? path === '/api/auth/logout' || path === '/api/auth/oidc/logout'
        ? (await login(platform.adminUser, platform.adminPassword)).token
        : token
      : undefined;
    // the console's login: the proof its page holds (the cookie GET /console/ sets, echoed, from this origin)
    const consoleProof = schemes.length === 1 && schemes[0] === 'consoleCsrf' ? await consoleProofHeaders() : {};
    const res = await api(method.toUpperCase(), concretePath(documented), {
      token: bearer,
      apiKey: schemes.includes('apiKey'),
      headers: { 'accept-language': 'en', ...consoleProof },
      ...(operation.requestBody ? { body: {} } : {}),
    });
    const said = `${method.toUpperCase()} ${path} → ${res.status} ${res.text.slice(0, 160)}`;
    if (res.status === 404 && String(res.body?.message).startsWith('No such path')) problems.push(`not routed: ${said}`);
    if (res.status === 401) problems.push(`credentials of its security refused: ${said}`);
    if (!Object.hasOwn(operation.responses ?? {}, String(res.status))) problems.push(`undocumented status: ${said}`);
  }
  t.deepEqual(problems, []);
});

/** The headers of a request from the console's own page: its CSRF cookie and header, and this origin. */
async function consoleProofHeaders(): Promise<Record<string, string>> {
  const page = await api('GET', '/console/');
  const token = /SVC_CONSOLE_CSRF=([^;]+)/.exec(page.headers.getSetCookie().join('\n'))?.[1] ?? '';
  return { cookie: `SVC_CONSOLE_CSRF=${token}`, 'x-csrf-token': token, origin: new URL(platform.url).origin };
}

test('records, pages, statistics and the login and me bodies match their documented schemas', async (t) => {
  const document = await served();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(document as object, 'api');
  const check = (schema: string, body: unknown, what: string) => {
    const validate = ajv.getSchema(`api#/components/schemas/${schema}`);
    if (!validate) return t.fail(`no schema ${schema}`);
    t.true(validate(body), `${what}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(body).slice(0, 300)}`);
  };

  const { token } = await adminSession();
  const tenant = (await createAccount()).crProcessId as number;
  for (const resource of registry) {
    const record = await sampleRecord(resource, tenant);
    check(resource.name, record, `POST /api/${resource.path}`);
    const got = await api('GET', `/api/${resource.path}/${keyPath(resource, record)}`, { token });
    check(resource.name, got.body, `GET /api/${resource.path}/{${keyOf(resource)}}`);
    const page = await api('POST', `/api/${resource.path}/list`, { token, body: { filter: { crProcessId: record.crProcessId } } });
    check(`${resource.name}Page`, page.body, `POST /api/${resource.path}/list`);
    if (offers(resource, 'stats')) check('Statistics', (await api('GET', `/api/${resource.path}/stats`, { token })).body, `GET /api/${resource.path}/stats`);
  }
  const loggedIn = await login(platform.adminUser, platform.adminPassword);
  check('LoginResponse', loggedIn.body, 'POST /api/auth/login');
  check('Me', (await api('GET', '/api/auth/me', { token: loggedIn.token })).body, 'GET /api/auth/me');
  check('SessionPage', (await api('GET', '/api/session/history/list', { apiKey: true })).body, 'GET /api/session/history/list');
  check('Statistics', (await api('GET', '/api/session/stats', { apiKey: true })).body, 'GET /api/session/stats');
});

test("a list's filter is described as what it is: a resource's as the entity filter, the operators' lists by their own keys", async (t) => {
  const document = await served();
  const schemaOf = (path: string) => {
    const body = (document.paths?.[path]?.post?.requestBody ?? {}) as { content?: Record<string, { schema?: SchemaObject & { $ref?: string } }> };
    const schema = body.content?.['application/json']?.schema ?? {};
    const named = schema.$ref?.replace('#/components/schemas/', '');
    return (named ? document.components?.schemas?.[named] : schema) as SchemaObject;
  };
  const filterOf = (path: string) => String((schemaOf(path).properties?.filter as SchemaObject | undefined)?.description);
  t.regex(filterOf('/api/city/list'), /crProcessId \(required\)/);
  t.is(filterOf('/api/session/active/list'), 'May hold userCode, accountNo, crProcessId (docs/interface.md#sessions-and-logs).');
  t.regex(filterOf('/api/logs/exceptions/list'), /^May hold service, errorCode, userCode, crProcessId, createdAtFrom, createdAtTo /);
});

test('GET /api/docs is an HTML page whose scripts and styles the gateway serves itself', async (t) => {
  const page = await api('GET', '/api/docs');
  t.is(page.status, 200);
  t.regex(page.headers.get('content-type') ?? '', /^text\/html/);
  t.regex(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  const urls = [...page.text.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? '');
  const scripts = urls.filter((url) => url.endsWith('.js'));
  const styles = urls.filter((url) => url.endsWith('.css'));
  t.true(scripts.length >= 2 && styles.length >= 1, urls.join(' '));
  for (const url of urls) {
    t.regex(url, /^\/api\/docs\//, `${url} is on the gateway`);
    const res = await fetch(`${platform.url}${url}`);
    const body = await res.arrayBuffer();
    t.is(res.status, 200, url);
    t.true(body.byteLength > 0, url);
    if (url.endsWith('.js')) t.regex(res.headers.get('content-type') ?? '', /javascript/, url);
    if (url.endsWith('.css')) t.regex(res.headers.get('content-type') ?? '', /^text\/css/, url);
  }
  // no CDN: nothing the page or its starter loads names another host
  const starter = await (await fetch(`${platform.url}/api/docs/assets/reference.js`)).text();
  t.false(/https?:\/\//.test(page.text + starter), 'no absolute URL in the page or its starter');
});

test("a docs asset that is not one of the page's files is 404", async (t) => {
  for (const name of ['package.json', 'index.html', '..%2F..%2Fpackage.json']) {
    const res = await api('GET', `/api/docs/assets/${name}`);
    t.is(res.status, 404, name);
    t.is(res.body?.error_code, 'SVC-SYS-4001', name);
  }
});
