/**
 * Conditional requests on every record (docs/interface.md#conditional-requests): "GET
 * /api/{entity}/{id} answers `ETag: W/"<version>"`", "an If-None-Match that names it (or `*`) is 304
 * without a body", "PUT and DELETE honour If-Match: ... else 412 `SVC-SYS-4002`", checked by the
 * service with the write, over HTTP against the real platform, for resources of each service.
 */
import test from 'ava';
import { type Resource } from '@platform/kit/resource/resource.ts';
import { registry } from '../gateway/src/registry.ts';
import { accountFor, adminSession, createAccount, freshTenant, userWithRoles } from './helpers/factories.ts';
import { api, type ApiResponse } from './helpers/platform.ts';
import { keyPath, sampleOf, sampleRecord, stored } from './helpers/samples.ts';

function resourceOf(path: string): Resource {
  const resource = registry.find((candidate) => candidate.path === path);
  if (!resource) throw new Error(`no resource ${path}`);
  return resource;
}

/** One resource of each service, and account for a key that is not an id. */
const RESOURCES = ['branch', 'user-info', 'dms-category', 'account'].map(resourceOf);
/** Those whose test records may be deleted (account: the tenant's own, which users' selects name). */
const DELETABLE = RESOURCES.filter((resource) => !sampleOf(resource).tenantRecord);

/** A fresh record of `resource` in a fresh tenant, and the URL that addresses it. */
async function fresh(resource: Resource): Promise<{ token: string; record: any; url: string }> {
  const { token } = await adminSession();
  const tenant = freshTenant();
  if (sampleOf(resource).tenantRecord) await accountFor(tenant);
  const record = await sampleRecord(resource, tenant);
  return { token, record, url: `/api/${resource.path}/${keyPath(resource, record)}` };
}

function isError(t: import('ava').ExecutionContext, res: ApiResponse, status: number, code: string, what: string): void {
  t.is(res.status, status, `${what}: ${res.text}`);
  t.is(res.body?.status, 'ERROR', what);
  t.is(res.body?.error_code, code, what);
}

// "GET /api/{entity}/{id} answers ETag: W/"<version>"" — every resource, and 304 for its own tag
for (const resource of registry) {
  test(`${resource.path}: GET answers the record's version as a weak ETag, and 304 for an If-None-Match naming it`, async (t) => {
    const { token, record, url } = await fresh(resource);
    const got = await api('GET', url, { token });
    t.is(got.status, 200, got.text);
    t.is(got.headers.get('etag'), `W/"${got.body.version}"`);
    const same = await api('GET', url, { token, headers: { 'if-none-match': `W/"${record.version}"` } });
    t.is(same.status, 304, same.text);
    t.is(same.text, '');
    t.is(same.headers.get('etag'), `W/"${record.version}"`);
  });
}

for (const resource of RESOURCES) {
  test(`${resource.path}: If-None-Match is compared weakly, as a list, and * matches; any other tag is the usual 200`, async (t) => {
    const { token, url } = await fresh(resource);
    const got = await api('GET', url, { token });
    const version: number = got.body.version;
    for (const tags of [`W/"${version}"`, `"${version}"`, `"77", W/"${version}"`, ` "x" ,"${version}" , `, '*']) {
      const res = await api('GET', url, { token, headers: { 'if-none-match': tags } });
      t.is(res.status, 304, `${tags}: ${res.text}`);
      t.is(res.text, '', tags);
      t.is(res.headers.get('etag'), `W/"${version}"`, tags);
      t.is(res.headers.get('content-type'), null, tags);
    }
    for (const tags of [`"${version + 1}"`, `W/"0${version}"`, '"abc", W/"77"']) {
      const res = await api('GET', url, { token, headers: { 'if-none-match': tags } });
      t.is(res.status, 200, `${tags}: ${res.text}`);
      t.deepEqual(stored(resource, res.body), stored(resource, got.body), tags);
      t.is(res.headers.get('etag'), `W/"${version}"`, tags);
    }
  });

  test(`${resource.path}: PUT with a matching If-Match writes, raises the version and answers the new ETag; a stale one is 412 and writes nothing`, async (t) => {
    const { token, url } = await fresh(resource);
    const before = await api('GET', url, { token });
    const version: number = before.body.version;
    const changes = sampleOf(resource).update();

    // the body's version may be left out: If-Match names it
    const written = await api('PUT', url, { token, headers: { 'if-match': `W/"${version}"` }, body: changes });
    t.is(written.status, 200, written.text);
    t.is(written.body.version, version + 1);
    t.is(written.headers.get('etag'), `W/"${version + 1}"`);
    for (const [name, value] of Object.entries(changes)) t.deepEqual(written.body[name], value, name);
    const after = await api('GET', url, { token });
    t.deepEqual(stored(resource, after.body), stored(resource, written.body));

    for (const tags of [`"${version}"`, `W/"${version}"`, `"${version + 5}", W/"${version + 2}"`, '"abc"']) {
      const stale = await api('PUT', url, { token, headers: { 'if-match': tags }, body: sampleOf(resource).update() });
      isError(t, stale, 412, 'SVC-SYS-4002', tags);
    }
    const unchanged = await api('GET', url, { token });
    t.deepEqual(stored(resource, unchanged.body), stored(resource, written.body), 'a refused update changes nothing');

    // a list naming the stored version, and the body's version along with it
    const listed = await api('PUT', url, { token, headers: { 'if-match': `"0", W/"${version + 1}"` }, body: { version: version + 1, ...changes } });
    t.is(listed.status, 200, listed.text);
    t.is(listed.body.version, version + 2);
    // * matches any existing record, without a body version
    const any = await api('PUT', url, { token, headers: { 'if-match': '*' }, body: changes });
    t.is(any.status, 200, any.text);
    t.is(any.body.version, version + 3);
    t.is(any.headers.get('etag'), `W/"${version + 3}"`);
  });

  test(`${resource.path}: without If-Match the body's version works as before; with one, a body version it does not name is 400`, async (t) => {
    const { token, url } = await fresh(resource);
    const version: number = (await api('GET', url, { token })).body.version;
    const changes = sampleOf(resource).update();
    isError(t, await api('PUT', url, { token, body: changes }), 400, 'SVC-SYS-2001', 'no version, no If-Match');
    isError(t, await api('PUT', url, { token, body: { version: version + 1, ...changes } }), 409, 'SVC-SYS-4002', 'stale body version');
    const contradiction = await api('PUT', url, { token, headers: { 'if-match': `"${version}"` }, body: { version: version + 1, ...changes } });
    isError(t, contradiction, 400, 'SVC-SYS-2001', 'If-Match and body disagree');
    t.true(String(contradiction.body.message).includes('version'), contradiction.text);
    // * names no version: the body's is checked as before
    isError(
      t,
      await api('PUT', url, { token, headers: { 'if-match': '*' }, body: { version: version + 1, ...changes } }),
      409,
      'SVC-SYS-4002',
      '* and a stale body',
    );
    t.is((await api('GET', url, { token })).body.version, version, 'nothing was written');
    const plain = await api('PUT', url, { token, body: { version, ...changes } });
    t.is(plain.status, 200, plain.text);
    t.is(plain.headers.get('etag'), `W/"${version + 1}"`);
  });

  test(`${resource.path}: malformed If-Match and If-None-Match are 400 SVC-SYS-2001 naming the header, without the record's ETag, and change nothing`, async (t) => {
    const { token, url } = await fresh(resource);
    const before = await api('GET', url, { token });
    const version: number = before.body.version;
    for (const value of [`${version}`, `W/${version}`, `"${version}`, `w/"${version}"`, `*, "${version}"`, `"${version}" "${version}"`, ',', ' ']) {
      const got = await api('GET', url, { token, headers: { 'if-none-match': value } });
      isError(t, got, 400, 'SVC-SYS-2001', `If-None-Match ${value}`);
      t.true(String(got.body.message).includes('If-None-Match'), got.text);
      // the header is judged before the record is read: the refusal tells nothing of it
      t.is(got.headers.get('etag'), null, `If-None-Match ${value}: no ETag on the 400`);
      const put = await api('PUT', url, { token, headers: { 'if-match': value }, body: { version, ...sampleOf(resource).update() } });
      isError(t, put, 400, 'SVC-SYS-2001', `PUT If-Match ${value}`);
      t.true(String(put.body.message).includes('If-Match'), put.text);
      isError(t, await api('DELETE', url, { token, headers: { 'if-match': value } }), 400, 'SVC-SYS-2001', `DELETE If-Match ${value}`);
    }
    const after = await api('GET', url, { token });
    t.deepEqual(stored(resource, after.body), stored(resource, before.body));
  });
}

for (const resource of DELETABLE) {
  test(`${resource.path}: DELETE with a stale If-Match is 412 and deletes nothing; with a matching one 204; a missing record stays 404`, async (t) => {
    const { token, record, url } = await fresh(resource);
    const version: number = record.version;
    for (const tags of [`"${version + 1}"`, `W/"${version + 1}", "abc"`]) {
      isError(t, await api('DELETE', url, { token, headers: { 'if-match': tags } }), 412, 'SVC-SYS-4002', tags);
    }
    const still = await api('GET', url, { token });
    t.is(still.status, 200, still.text);
    t.deepEqual(stored(resource, still.body), stored(resource, record));

    const deleted = await api('DELETE', url, { token, headers: { 'if-match': `W/"${version}"` } });
    t.is(deleted.status, 204, deleted.text);
    isError(t, await api('GET', url, { token }), 404, 'SVC-SYS-4001', 'deleted');
    for (const tags of ['*', `"${version}"`]) {
      isError(t, await api('DELETE', url, { token, headers: { 'if-match': tags } }), 404, 'SVC-SYS-4001', `DELETE ${tags} of a missing record`);
      isError(t, await api('PUT', url, { token, headers: { 'if-match': tags }, body: sampleOf(resource).update() }), 404, 'SVC-SYS-4001', `PUT ${tags}`);
    }
    isError(t, await api('GET', url, { token, headers: { 'if-none-match': '*' } }), 404, 'SVC-SYS-4001', 'If-None-Match * of a missing record');
  });

  test(`${resource.path}: DELETE with If-Match * deletes any existing record`, async (t) => {
    const { token, url } = await fresh(resource);
    t.is((await api('DELETE', url, { token, headers: { 'if-match': '*' } })).status, 204);
    isError(t, await api('GET', url, { token }), 404, 'SVC-SYS-4001', 'deleted');
  });
}

const CONCURRENT = 8;

for (const resource of RESOURCES) {
  test(`${resource.path}: ${CONCURRENT} concurrent PUTs with the same If-Match: exactly one is 200, the others 412`, async (t) => {
    const { token, url } = await fresh(resource);
    const version: number = (await api('GET', url, { token })).body.version;
    const responses = await Promise.all(
      Array.from({ length: CONCURRENT }, () => api('PUT', url, { token, headers: { 'if-match': `W/"${version}"` }, body: sampleOf(resource).update() })),
    );
    const statuses = responses.map((res) => res.status).sort();
    t.deepEqual(statuses, [200, ...Array<number>(CONCURRENT - 1).fill(412)], responses.map((res) => res.text).join('\n'));
    for (const res of responses.filter((r) => r.status === 412)) t.is(res.body.error_code, 'SVC-SYS-4002');
    const winner = responses.find((res) => res.status === 200);
    const after = await api('GET', url, { token });
    t.is(after.body.version, version + 1);
    t.deepEqual(stored(resource, after.body), stored(resource, winner?.body ?? {}), "the one write that passed is the record's state");
  });
}

test('a concurrent PUT and DELETE with the same If-Match: exactly one of them passes', async (t) => {
  const resource = resourceOf('branch');
  const { token, url } = await fresh(resource);
  const tag = '"0"';
  const [put, del] = await Promise.all([
    api('PUT', url, { token, headers: { 'if-match': tag }, body: sampleOf(resource).update() }),
    api('DELETE', url, { token, headers: { 'if-match': tag } }),
  ]);
  if (!put || !del) return t.fail('no answer');
  const after = await api('GET', url, { token });
  if (put.status === 200) {
    // the update came first: the delete then found version 1
    isError(t, del, 412, 'SVC-SYS-4002', 'the later delete');
    t.is(after.body.version, 1, after.text);
  } else {
    // the delete came first: the update then found no record
    t.is(del.status, 204, del.text);
    isError(t, put, 404, 'SVC-SYS-4001', 'the later update');
    t.is(after.status, 404, after.text);
  }
});

// "another tenant's row does not exist for it" (docs/interface.md#identity), whatever the tag
test("another tenant's record is 404 to a conditional GET, PUT and DELETE naming its tag, and is left as it was", async (t) => {
  const resource = resourceOf('branch');
  const { token, record, url } = await fresh(resource);
  const account = await createAccount();
  const user = await userWithRoles(account, ['branch:read', 'branch:write', 'branch:delete']);
  const tag = `W/"${record.version}"`;
  for (const value of [tag, '*']) {
    isError(t, await api('GET', url, { token: user.token, headers: { 'if-none-match': value } }), 404, 'SVC-SYS-4001', `GET ${value}`);
    const put = await api('PUT', url, { token: user.token, headers: { 'if-match': value }, body: sampleOf(resource).update() });
    isError(t, put, 404, 'SVC-SYS-4001', `PUT ${value}`);
    isError(t, await api('DELETE', url, { token: user.token, headers: { 'if-match': value } }), 404, 'SVC-SYS-4001', `DELETE ${value}`);
  }
  const after = await api('GET', url, { token });
  t.is(after.status, 200, after.text);
  t.deepEqual(stored(resource, after.body), stored(resource, record));
});
