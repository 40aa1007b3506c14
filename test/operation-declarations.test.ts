/**
 * Each operation beyond the CRUD sets is declared once (libs/contracts: route, RPC, retry class,
 * API document words), and the gateway's route, its API document entry and its retry policy all
 * follow from that declaration: the served document has every declared operation at its method and
 * path with its query and words, the retry policy retries exactly the declared reads, and every
 * route of the gateway is a CRUD route, a declared operation or one of a short list written by hand.
 */
import test from 'ava';
import type { OpenAPIObject, OperationObject, ParameterObject } from 'openapi3-ts/oas31';
import type { Operation, OperationTable } from '@platform/contracts/operation.ts';
import { OPERATION_TABLES } from '@platform/contracts/operations.ts';
import { crudRouteTable } from '../gateway/src/routes/crud.ts';
import { docSourcesOf } from '../gateway/src/openapi/doc-sources.ts';
import { loadProtoDocs } from '../gateway/src/openapi/proto-docs.ts';
import { registry } from '../gateway/src/registry.ts';
import { readOnlyMethods, retryServiceConfig } from '../gateway/src/retry-policy.ts';
import { routesOf } from '../gateway/src/routes/route.ts';
import { gatewayRoutes, HAND_WRITTEN_ROUTES, OPERATION_ROUTES } from '../gateway/src/routes/table.ts';
import { api } from './helpers/platform.ts';

const entriesOf = (tables: readonly OperationTable[]) => tables.flatMap((table) => Object.entries(table) as [string, Operation<never, unknown>][]);
const declared = entriesOf(OPERATION_TABLES);
/** The hand-written routes are declared the same way, without an RPC, in the gateway's own tables. */
const handWritten = entriesOf(HAND_WRITTEN_ROUTES);
const key = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/:(\w+)/g, '{$1}')}`;

/** The routes the gateway writes by hand (streams relayed to dms-svc, imports, health, this document): a new one is added here knowingly. */
const HAND_WRITTEN = [
  'POST /api/dms-file/upload',
  'OPTIONS /api/dms-file/tus',
  'POST /api/dms-file/tus',
  'HEAD /api/dms-file/tus/{uploadId}',
  'PATCH /api/dms-file/tus/{uploadId}',
  'DELETE /api/dms-file/tus/{uploadId}',
  'GET /api/dms-file/download/{id}',
  'GET /api/dms-share-link/public/{token}',
  'POST /api/dms-share-link/public/{token}/validate-password',
  'GET /actuator/health',
  'GET /api/health',
  'GET /api/docs',
  'GET /api/docs/openapi.json',
  'GET /api/docs/assets/{file}',
  // imports (docs/adr/0157-importing-files-into-the-registry.md): the upload's stream and the runs, over every entity
  'POST /api/import/{entity}',
  'GET /api/import/{entity}',
  'GET /api/import/{entity}/{id}',
  'PUT /api/import/{entity}/{id}',
  'POST /api/import/{entity}/{id}/check',
  'POST /api/import/{entity}/{id}/start',
  'POST /api/import/{entity}/{id}/cancel',
  'GET /api/import/{entity}/{id}/errors',
];

test('the declared operations are many and each is a route of the gateway, its table the declaration itself', (t) => {
  t.true(declared.length >= 24, `${declared.length} declared operations`);
  const tables: readonly object[] = OPERATION_ROUTES;
  t.deepEqual(
    tables.map((table) => OPERATION_TABLES.indexOf(table as (typeof OPERATION_TABLES)[number])),
    OPERATION_TABLES.map((_, i) => i),
    'the gateway routes by the declared tables themselves, in their order',
  );
  const routed = gatewayRoutes(registry).map((route) => key(route.method, route.path));
  for (const [name, operation] of declared) t.true(routed.includes(key(operation.method, operation.path)), name);
});

test('every route of the gateway is a CRUD route, a declared operation, or one of the few written by hand', (t) => {
  const crud = new Set(routesOf(...registry.map(crudRouteTable)).map((route) => key(route.method, route.path)));
  const operations = new Set(declared.map(([, operation]) => key(operation.method, operation.path)));
  const others = gatewayRoutes(registry)
    .map((route) => key(route.method, route.path))
    .filter((route) => !crud.has(route) && !operations.has(route));
  t.deepEqual(others.sort(), [...HAND_WRITTEN].sort());
  t.deepEqual(
    routesOf(...HAND_WRITTEN_ROUTES)
      .map((route) => key(route.method, route.path))
      .sort(),
    [...HAND_WRITTEN].sort(),
  );
});

test('the retry policy retries the declared reads and no declared write', (t) => {
  const retried = new Set(readOnlyMethods().map(({ service, method }) => `/${service}/${method}`));
  const configured = new Set(
    (JSON.parse(retryServiceConfig()).methodConfig[0].name as { service: string; method: string }[]).map(({ service, method }) => `/${service}/${method}`),
  );
  let reads = 0;
  for (const [name, operation] of declared) {
    if (!operation.rpc) continue;
    const read = operation.rpc.retry === 'read';
    reads += read ? 1 : 0;
    t.is(retried.has(operation.rpc.method.path), read, `${name} (${operation.rpc.method.path}) is ${operation.rpc.retry}`);
    t.is(configured.has(operation.rpc.method.path), read, `${name} in the channel's service config`);
  }
  t.true(reads > 5 && reads < declared.length, `${reads} reads among ${declared.length}`);
});

test('the served API document has every declared operation and hand-written route at its method and path, with its query and words', async (t) => {
  const res = await api('GET', '/api/docs/openapi.json');
  t.is(res.status, 200);
  const document = res.body as OpenAPIObject;
  const docs = loadProtoDocs();
  t.true(
    handWritten.every(([, operation]) => !operation.rpc),
    'a hand-written route calls no declared RPC',
  );
  for (const [name, operation] of [...declared, ...handWritten]) {
    const path = operation.path.replace(/:(\w+)/g, '{$1}');
    const entry = document.paths?.[path]?.[operation.method] as OperationObject | undefined;
    if (!entry) {
      t.fail(`${name}: no ${key(operation.method, operation.path)} in the document`);
      continue;
    }
    const words = operation.doc(docSourcesOf(docs, operation));
    t.is(entry.operationId, name);
    t.is(entry.summary, words.summary, name);
    t.deepEqual(entry.tags, [words.tag], name);
    t.is(entry.description, words.description || undefined, name);
    t.true(Object.hasOwn(entry.responses ?? {}, String(words.ok.status)), `${name}: answers ${words.ok.status}`);
    t.is(Boolean(entry.requestBody), Boolean(words.body), `${name}: a body as declared`);
    const query = (entry.parameters ?? []).filter((p): p is ParameterObject => 'in' in p && p.in === 'query').map((p) => p.name);
    // the query the gateway reads, then the one a relayed route's service reads (its doc names it)
    t.deepEqual(query, [...Object.keys(operation.query ?? {}), ...Object.keys(words.query ?? {})], `${name}: the declared query`);
    if (operation.rpc) t.truthy(words.description ?? docs.rpc(operation.rpc.method), `${name}: its RPC has a proto comment`);
  }
});
