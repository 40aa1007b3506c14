/**
 * The typed client (libs/client) through the real gateway: login, a record's create, get, list with
 * a filter, update with its version (a stale one answers the 409 error body), delete, and a file up
 * and down; each call with the credential its operation asks for, and no other.
 */
import { createHash } from 'node:crypto';
import test from 'ava';
import { createPlatformClient, isErrorBody, multipartBody, type Branch, type BranchCreate, type ErrorBody } from '@platform/client';
import { freshTenant, unique } from './helpers/factories.ts';
import { platform } from './helpers/platform.ts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

test('login, create, get, list with a filter, update with version, stale update 409, delete, upload and download through the client', async (t) => {
  const sent: { method: string; path: string; apiKey: boolean; bearer: boolean }[] = [];
  const client = createPlatformClient({
    baseUrl: `${platform.url}/`,
    apiKey: platform.apiKey,
    fetch: (request) => {
      const { pathname } = new URL(request.url);
      sent.push({ method: request.method, path: pathname, apiKey: request.headers.has('x-api-key'), bearer: request.headers.has('authorization') });
      return fetch(request);
    },
  });

  const login = await client.POST('/api/auth/login', { body: { userCode: platform.adminUser, password: platform.adminPassword, languageCode: 'en' } });
  t.is(login.response.status, 200, JSON.stringify(login.error));
  t.is(login.data?.userCode, platform.adminUser);
  t.regex(client.token ?? '', /^[\w-]+\.[\w-]+\.[\w-]+$/, 'the SVC_SESSION cookie became the bearer token');

  const tenant = freshTenant();
  const partner = await client.POST('/api/business-partner', {
    body: { crProcessId: tenant, partnerCode: unique('P-'), partnerName: unique('Partner '), partnerType: 'CUSTOMER' },
  });
  if (!partner.data) return t.fail(`create business-partner: ${partner.response.status} ${JSON.stringify(partner.error)}`);
  const draft: BranchCreate = { crProcessId: tenant, businessPartnerId: partner.data.id, branchName: unique('Branch '), branchCode: unique('B-') };
  const created = await client.POST('/api/branch', { body: draft });
  if (!created.data) return t.fail(`create branch: ${created.response.status} ${JSON.stringify(created.error)}`);
  const branch: Branch = created.data;
  t.is(branch.version, 0);
  t.is(branch.branchName, draft.branchName);

  const got = await client.GET('/api/branch/{key}', { params: { path: { key: branch.id } } });
  t.is(got.response.status, 200);
  t.deepEqual(got.data, branch);

  const listed = await client.POST('/api/branch/list', { body: { filter: { crProcessId: tenant, branchCode: draft.branchCode } } });
  t.is(listed.response.status, 200, JSON.stringify(listed.error));
  t.deepEqual(
    listed.data?.content.map((item) => item.id),
    [branch.id],
  );
  t.is(listed.data?.totalElements, 1);

  const renamed = unique('Renamed ');
  const updated = await client.PUT('/api/branch/{key}', { params: { path: { key: branch.id } }, body: { version: 0, branchName: renamed } });
  t.is(updated.response.status, 200, JSON.stringify(updated.error));
  t.is(updated.data?.version, 1);
  t.is(updated.data?.branchName, renamed);

  const stale = await client.PUT('/api/branch/{key}', { params: { path: { key: branch.id } }, body: { version: 0, branchName: unique('Stale ') } });
  t.is(stale.response.status, 409);
  if (!isErrorBody(stale.error)) return t.fail(`409 without the error body: ${JSON.stringify(stale.error)}`);
  const conflict: ErrorBody = stale.error; // the document's error schema, typed
  t.is(conflict.error_code, 'SVC-SYS-4002');
  t.is(typeof conflict.message, 'string');

  const deleted = await client.DELETE('/api/branch/{key}', { params: { path: { key: branch.id } } });
  t.true(deleted.response.ok, `delete: ${deleted.response.status} ${JSON.stringify(deleted.error)}`);
  const gone = await client.GET('/api/branch/{key}', { params: { path: { key: branch.id } } });
  t.is(gone.response.status, 404);
  t.true(isErrorBody(gone.error) && gone.error.error_code === 'SVC-SYS-4001', JSON.stringify(gone.error));

  const bytes = new TextEncoder().encode(`client round trip ${unique()}\n`);
  const uploaded = await client.POST('/api/dms-file/upload', {
    body: { crProcessId: tenant, description: 'through the typed client', file: new File([bytes], 'round-trip.txt', { type: 'text/plain' }) },
    bodySerializer: multipartBody,
  });
  if (!uploaded.data) return t.fail(`upload: ${uploaded.response.status} ${JSON.stringify(uploaded.error)}`);
  t.is(uploaded.data.originalFileName, 'round-trip.txt');
  t.is(uploaded.data.fileSize, bytes.byteLength);
  const fileId = uploaded.data.fileId;

  const signed = await client.GET('/api/dms-file/{id}/download-url', { params: { path: { id: fileId } } });
  if (!signed.data) return t.fail(`download-url: ${signed.response.status} ${JSON.stringify(signed.error)}`);
  const query = new URL(signed.data.url, platform.url).searchParams;
  const downloaded = await client.GET('/api/dms-file/download/{id}', {
    params: {
      path: { id: fileId },
      query: {
        token: query.get('token') ?? '',
        expires: Number(query.get('expires')),
        inline: query.get('inline') === 'true' ? 'true' : 'false',
        user: query.get('user') ?? undefined,
      },
    },
    parseAs: 'arrayBuffer',
  });
  t.is(downloaded.response.status, 200);
  t.is(sha256(new Uint8Array(downloaded.data ?? new ArrayBuffer(0))), sha256(bytes), 'the bytes came back whole');

  const loggedOut = await client.POST('/api/auth/logout');
  t.true(loggedOut.response.ok, `logout: ${loggedOut.response.status}`);
  t.is(client.token, undefined, 'the cleared cookie cleared the token');

  // Each credential went only where the document's security asks for it.
  const byPath = (method: string, path: string) => sent.filter((call) => call.method === method && call.path === path);
  t.deepEqual(byPath('POST', '/api/auth/login'), [{ method: 'POST', path: '/api/auth/login', apiKey: true, bearer: false }]);
  t.true(sent.filter((call) => call.path.startsWith('/api/branch')).every((call) => call.bearer && !call.apiKey));
  t.deepEqual(
    byPath('GET', `/api/dms-file/download/${fileId}`).map(({ apiKey, bearer }) => ({ apiKey, bearer })),
    [{ apiKey: false, bearer: false }],
    'a public path gets neither',
  );
  t.is(sent.length, 13);
});
