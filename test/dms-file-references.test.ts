/**
 * "References (...Id) must name a record of the same tenant, else 400 SVC-SYS-2001" and "Deleting a
 * record that others reference is 409 SVC-SYS-4003 (... a category with files ...)" (docs/interface.md#records), for dms-share-link.fileId → dms-file and dms-file.categoryId → dms-category.
 */
import test from 'ava';
import { adminSession, create, freshTenant, unique } from './helpers/factories.ts';
import { assertErrorBody, assertInvalid } from './helpers/error-body.ts';
import { upload, uploadRecord } from './helpers/files.ts';
import { api } from './helpers/platform.ts';

const admin = async () => (await adminSession()).token;
const category = (crProcessId: number) => create('dms-category', { crProcessId, categoryName: unique('Ref category ') });

test('"dms-share-link | fileId": a file of another tenant or no file at all is 400 SVC-SYS-2001 naming fileId, on create and update', async (t) => {
  const token = await admin();
  const [a, b] = [freshTenant(), freshTenant()];
  const [fileOfA, fileOfB] = await Promise.all([uploadRecord(token, a, 'file of A'), uploadRecord(token, b, 'file of B')]);
  for (const fileId of [fileOfB.id, 999_999_999_999]) {
    assertInvalid(t, await api('POST', '/api/dms-share-link', { token, body: { crProcessId: a, fileId } }), 'fileId');
  }
  const link = await create('dms-share-link', { crProcessId: a, fileId: fileOfA.id });
  assertInvalid(t, await api('PUT', `/api/dms-share-link/${link.id}`, { token, body: { version: 0, fileId: fileOfB.id } }), 'fileId');
  t.like((await api('GET', `/api/dms-share-link/${link.id}`, { token })).body, { version: 0, fileId: fileOfA.id });
});

test('"dms-file | categoryId": another tenant\'s category is 400 SVC-SYS-2001 naming categoryId on upload (nothing kept), update and move', async (t) => {
  const token = await admin();
  const [a, b] = [freshTenant(), freshTenant()];
  const [categoryOfA, categoryOfB] = await Promise.all([category(a), category(b)]);

  const refused = await upload({ token, crProcessId: a, content: 'misfiled', fields: { categoryId: String(categoryOfB.id) } });
  assertInvalid(t, refused, 'categoryId');
  t.is((await api('POST', '/api/dms-file/list', { token, body: { filter: { crProcessId: a } } })).body.totalElements, 0, 'no row');

  const filed = await upload({ token, crProcessId: a, content: 'filed', fields: { categoryId: String(categoryOfA.id) } });
  t.is(filed.status, 200, filed.text);
  const id = filed.body.fileId;
  t.is((await api('GET', `/api/dms-file/${id}`, { token })).body.categoryId, categoryOfA.id);

  assertInvalid(t, await api('PUT', `/api/dms-file/${id}`, { token, body: { version: 0, categoryId: categoryOfB.id } }), 'categoryId');
  assertInvalid(t, await api('PUT', `/api/dms-file/${id}/category?categoryId=${categoryOfB.id}`, { token }), 'categoryId');
  assertInvalid(t, await api('PUT', `/api/dms-file/${id}/category?categoryId=999999999999`, { token }), 'categoryId');
  t.like((await api('GET', `/api/dms-file/${id}`, { token })).body, { version: 0, categoryId: categoryOfA.id });
});

test('"a category with files": its delete is 409 SVC-SYS-4003 and keeps it; a category without files is deleted', async (t) => {
  const token = await admin();
  const tenant = freshTenant();
  const [used, unused] = await Promise.all([category(tenant), category(tenant)]);
  const filed = await upload({ token, crProcessId: tenant, content: 'in a category', fields: { categoryId: String(used.id) } });
  t.is(filed.status, 200, filed.text);
  assertErrorBody(t, await api('DELETE', `/api/dms-category/${used.id}`, { token }), 409, 'SVC-SYS-4003');
  t.is((await api('GET', `/api/dms-category/${used.id}`, { token })).status, 200);
  t.is((await api('DELETE', `/api/dms-category/${unused.id}`, { token })).status, 204);
});
