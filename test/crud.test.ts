/**
 * The table-driven walk: every resource in the gateway's registry through its CRUD set
 * (docs/interface.md#crud, docs/interface.md#entities), over HTTP against the real platform.
 */
import test from 'ava';
import { isScalar, keyOf, offers, type Resource } from '@platform/kit/resource/resource.ts';
import { registry } from '../gateway/src/registry.ts';
import { adminSession, freshTenant } from './helpers/factories.ts';
import { api } from './helpers/platform.ts';
import { samples, stored } from './helpers/samples.ts';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

test('every registered resource has a sample for the walk', (t) => {
  t.deepEqual(
    registry.map((r) => r.path).filter((path) => !samples[path]),
    [],
  );
});

for (const resource of registry.filter((r) => r.operations === 'read-only')) {
  // "license-history | get by id, list only" (docs/interface.md#entities): the platform writes them
  test(`${resource.path}: get and list of the records the platform writes, and no create, update or delete`, async (t) => {
    const sample = samples[resource.path];
    if (!sample?.existing) return t.fail(`a read-only resource's sample needs existing(): ${resource.path}`);
    const { token } = await adminSession();
    const tenant = freshTenant();
    const record = await sample.existing(tenant);
    const key = encodeURIComponent(String(record[keyOf(resource)]));
    t.is(record.crProcessId, tenant);
    t.is(record.version, 0);
    const got = await api('GET', `/api/${resource.path}/${key}`, { token });
    t.is(got.status, 200, got.text);
    t.deepEqual(stored(resource, got.body), stored(resource, record));
    const listed = await api('POST', `/api/${resource.path}/list`, { token, body: { filter: { crProcessId: tenant, id: record.id } } });
    t.deepEqual(
      listed.body.content.map((item: Record<string, unknown>) => stored(resource, item)),
      [stored(resource, record)],
    );
    for (const [method, path] of [
      ['POST', ''],
      ['PUT', `/${key}`],
      ['DELETE', `/${key}`],
      ['GET', '/stats'],
    ] as const) {
      const res = await api(method, `/api/${resource.path}${path}`, {
        token,
        body: method === 'GET' || method === 'DELETE' ? undefined : { crProcessId: tenant, version: 0 },
      });
      t.is(res.status, 404, `${method} ${path}: ${res.text}`);
      t.is(res.body.error_code, 'SVC-SYS-4001', `${method} ${path}`);
    }
    t.is((await api('GET', `/api/${resource.path}/${key}`, { token })).status, 200, 'still there');
  });
}

for (const resource of registry.filter((r) => r.operations === 'no-create')) {
  // "dms-file: get, update (metadata), delete (soft), list" — its records are made by the upload
  test(`${resource.path}: get, update, stale update, list and delete of a record made the platform's way, and no create or stats`, async (t) => {
    const sample = samples[resource.path];
    if (!sample?.existing) return t.fail(`a resource without create needs existing(): ${resource.path}`);
    const { token } = await adminSession();
    const tenant = freshTenant();
    const record = await sample.existing(tenant);
    const key = encodeURIComponent(String(record[keyOf(resource)]));
    t.is(record.crProcessId, tenant);
    t.is(record.version, 0);
    t.regex(record.createdAt, ISO_UTC);
    t.is(record.createdBy, 'admin');

    const changes = sample.update();
    const updated = await api('PUT', `/api/${resource.path}/${key}`, { token, body: { version: 0, ...changes } });
    t.is(updated.status, 200, updated.text);
    t.is(updated.body.version, 1);
    for (const [name, value] of Object.entries(changes)) t.deepEqual(updated.body[name], value, name);
    const stale = await api('PUT', `/api/${resource.path}/${key}`, { token, body: { version: 0, ...changes } });
    t.is(stale.status, 409);
    t.is(stale.body.error_code, 'SVC-SYS-4002');
    const versionless = await api('PUT', `/api/${resource.path}/${key}`, { token, body: changes });
    t.is(versionless.status, 400);

    const listed = await api('POST', `/api/${resource.path}/list`, { token, body: { page: 0, size: 20, filter: { crProcessId: tenant, id: record.id } } });
    t.is(listed.status, 200, listed.text);
    t.deepEqual(
      listed.body.content.map((item: Record<string, unknown>) => stored(resource, item)),
      [stored(resource, (await api('GET', `/api/${resource.path}/${key}`, { token })).body)],
    );

    for (const [method, path] of [
      ['POST', ''],
      ['GET', '/stats'],
    ] as const) {
      const res = await api(method, `/api/${resource.path}${path}`, { token, body: method === 'GET' ? undefined : { crProcessId: tenant } });
      t.is(res.status, 404, `${method} ${path}: ${res.text}`);
      t.is(res.body.error_code, 'SVC-SYS-4001', `${method} ${path}`);
    }

    const deleted = await api('DELETE', `/api/${resource.path}/${key}`, { token });
    t.is(deleted.status, 204);
    const gone = await api('GET', `/api/${resource.path}/${key}`, { token });
    t.is(gone.status, 404);
    t.is(gone.body.error_code, 'SVC-SYS-4001');
    t.is((await api('DELETE', `/api/${resource.path}/${key}`, { token })).status, 404);
  });
}

for (const resource of registry.filter((r) => offers(r, 'create'))) {
  test(`${resource.path}: create, get, update, stale update, list, stats, delete through the gateway`, async (t) => {
    const sample = samples[resource.path];
    if (!sample) return t.fail(`no sample for ${resource.path}`);
    const { token } = await adminSession();
    const tenant = freshTenant();
    const body = await sample.create(tenant);

    // create: id generated, version 0, status true by default; server-set fields sent by the client are ignored
    const created = await api('POST', `/api/${resource.path}`, {
      token,
      body: { ...body, id: 987654321, version: 7, createdBy: 'intruder', createdAt: '2000-01-01T00:00:00Z' },
    });
    t.is(created.status, 200, created.text);
    const record = created.body;
    t.true(Number.isSafeInteger(record.id) && record.id !== 987654321);
    t.is(record.version, 0);
    t.is(record.crProcessId, tenant);
    t.is(record.status, true);
    t.regex(record.createdAt, ISO_UTC);
    t.regex(record.updatedAt, ISO_UTC);
    t.is(record.createdBy, 'admin');
    for (const [name, value] of Object.entries(body)) {
      const spec = resource.fields[name];
      if (spec && isScalar(spec) && spec.writeOnly) t.false(name in record, `${name} is write-only`);
      else if (name !== 'userProcessSelects') t.deepEqual(record[name], value, name);
    }
    const key = encodeURIComponent(String(record[keyOf(resource)]));

    const got = await api('GET', `/api/${resource.path}/${key}`, { token });
    t.is(got.status, 200);
    t.deepEqual(stored(resource, got.body), stored(resource, record));

    // update with the current version: the version rises by one
    const changes = sample.update();
    const updated = await api('PUT', `/api/${resource.path}/${key}`, { token, body: { version: 0, ...changes } });
    t.is(updated.status, 200, updated.text);
    t.is(updated.body.version, 1);
    t.is(updated.body.id, record.id);
    t.is(updated.body.createdAt, record.createdAt);
    for (const [name, value] of Object.entries(changes)) t.deepEqual(updated.body[name], value, name);

    // "Update with stale version | 409 | SVC-SYS-4002"
    const stale = await api('PUT', `/api/${resource.path}/${key}`, { token, body: { version: 0, ...changes } });
    t.is(stale.status, 409);
    t.is(stale.body.error_code, 'SVC-SYS-4002');
    // "on update it is required ... missing: 400 SVC-SYS-2001"
    const versionless = await api('PUT', `/api/${resource.path}/${key}`, { token, body: changes });
    t.is(versionless.status, 400);
    t.is(versionless.body.error_code, 'SVC-SYS-2001');

    // list items are the full records, as get shows them
    const listed = await api('POST', `/api/${resource.path}/list`, {
      token,
      body: { page: 0, size: 20, filter: { crProcessId: tenant, id: record.id } },
    });
    t.is(listed.status, 200, listed.text);
    t.is(listed.body.totalElements, 1);
    t.deepEqual(
      listed.body.content.map((item: Record<string, unknown>) => stored(resource, item)),
      [stored(resource, (await api('GET', `/api/${resource.path}/${key}`, { token })).body)],
    );

    if (offers(resource, 'stats')) {
      const passive = await api('PUT', `/api/${resource.path}/${key}`, { token, body: { version: 1, status: false } });
      t.is(passive.status, 200, passive.text);
      t.is(passive.body.status, false);
      const stats = await api('GET', `/api/${resource.path}/stats?crProcessId=${tenant}`, { token });
      t.is(stats.status, 200);
      t.deepEqual(stats.body, { totalCount: 1, activeCount: 0, passiveCount: 1 });
    } else {
      t.is((await api('GET', `/api/${resource.path}/stats`, { token })).status, 404);
    }

    const deleted = await api('DELETE', `/api/${resource.path}/${key}`, { token });
    t.is(deleted.status, 204);
    t.is(deleted.text, '');
    const gone = await api('GET', `/api/${resource.path}/${key}`, { token });
    t.is(gone.status, 404);
    t.is(gone.body.error_code, 'SVC-SYS-4001');
    t.is((await api('DELETE', `/api/${resource.path}/${key}`, { token })).status, 404);
  });
}

test('the registry declares each path once and every resource names its RPCs in its service definition', (t) => {
  const paths = registry.map((r: Resource) => r.path);
  t.is(new Set(paths).size, paths.length);
  for (const resource of registry) {
    const methods = Object.keys(resource.grpc);
    t.true(methods.includes(`get${resource.name}`), resource.path);
    t.true(methods.includes(`list${resource.plural}`), resource.path);
  }
});
