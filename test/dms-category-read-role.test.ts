/**
 * A category's readRole (docs/adr/0160-a-category-s-read-role.md, docs/interface.md#files): a file
 * is read by a caller holding dms-file:read and, for every category from the file's up to the top
 * that names a readRole, that role. Roles are "the roles of the groups it is a member of in the
 * current tenant" and "A super user passes every role check" (docs/interface.md#identity); a file
 * the caller may not read is treated like another tenant's: "get, update, delete or an operation on
 * another tenant's record gets 404, as if it did not exist".
 */
import test from 'ava';
import { adminSession, create, createAccount, createGroupWithRoles, unique, userWithRoles } from './helpers/factories.ts';
import { assertErrorBody, assertInvalid } from './helpers/error-body.ts';
import { upload } from './helpers/files.ts';
import { accessTokenFor } from './helpers/access-tokens.ts';
import { api } from './helpers/platform.ts';

const FILE_ROLES = ['dms-file:read', 'dms-file:write', 'dms-file:delete', 'dms-share-link:write'];

/**
 * A tenant with a guarded category (its readRole), a category below it, an open one; a file in each,
 * one without a category, all linked to one record and named with one word; and a clerk holding
 * the file roles but not the guarded category's.
 */
async function guardedTenant() {
  const admin = (await adminSession()).token;
  const account = await createAccount();
  const tenant = account.crProcessId;
  const role = `${unique('hr')}:read`;
  const word = unique('Dossier');
  const guarded = await create('dms-category', { crProcessId: tenant, categoryName: unique('HR '), readRole: role });
  const below = await create('dms-category', { crProcessId: tenant, categoryName: unique('Payroll '), parentId: guarded.id });
  const open = await create('dms-category', { crProcessId: tenant, categoryName: unique('Public ') });
  // a record id of this tenant alone: by-entity reads every tenant for a super user
  const entityId = tenant;
  const file = async (category: { id: number } | undefined, name: string) => {
    const fields: Record<string, string> = { entityType: 'business-partner', entityId: String(entityId), description: word };
    if (category) fields.categoryId = String(category.id);
    const res = await upload({ token: admin, crProcessId: tenant, content: `${name} bytes`, fileName: `${word}-${name}.txt`, fields });
    if (res.status !== 200) throw new Error(`upload: ${res.status} ${res.text}`);
    return res.body.fileId as number;
  };
  const files = {
    guarded: await file(guarded, 'guarded'),
    below: await file(below, 'below'),
    open: await file(open, 'open'),
    loose: await file(undefined, 'loose'),
  };
  const clerk = await userWithRoles(account, FILE_ROLES);
  return { admin, account, tenant, role, word, entityId, categories: { guarded, below, open }, files, clerk };
}

type Guarded = Awaited<ReturnType<typeof guardedTenant>>;

/** The ids of the files a token finds through the list, by-entity, the file search and the global search. */
async function found(g: Guarded, token: string) {
  const list = await api('POST', '/api/dms-file/list', { token, body: { page: 0, size: 50, filter: { crProcessId: g.tenant } } });
  const byEntity = await api('GET', `/api/dms-file/by-entity?entityType=business-partner&entityId=${g.entityId}`, { token });
  const search = await api('GET', `/api/dms-file/search?crProcessId=${g.tenant}&searchTerm=${encodeURIComponent(g.word)}`, { token });
  const global = await api('GET', `/api/search?q=${encodeURIComponent(g.word)}`, { token });
  for (const res of [list, byEntity, search, global]) if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
  const ids = (items: { id: number }[]) => items.map((item) => item.id).sort((a, b) => a - b);
  const files = (global.body.groups as { entity: string; hits: { id: number }[] }[]).find((group) => group.entity === 'dms-file');
  return {
    list: ids(list.body.content),
    total: list.body.totalElements as number,
    byEntity: ids(byEntity.body),
    search: ids(search.body),
    global: ids(files?.hits ?? []),
  };
}

const sorted = (...ids: number[]) => [...ids].sort((a, b) => a - b);

test("a file in a category whose readRole the caller lacks is 404 on get, download-url, update, move and delete, as another tenant's", async (t) => {
  const g = await guardedTenant();
  const token = g.clerk.token;
  t.is((await api('GET', `/api/dms-file/${g.files.open}`, { token })).status, 200, "the open category's file is read");
  t.is((await api('GET', `/api/dms-file/${g.files.loose}`, { token })).status, 200, 'a file without a category is read');
  for (const id of [g.files.guarded, g.files.below]) {
    assertErrorBody(t, await api('GET', `/api/dms-file/${id}`, { token }), 404, 'SVC-SYS-4001');
    assertErrorBody(t, await api('GET', `/api/dms-file/${id}/download-url`, { token }), 404, 'SVC-SYS-4001');
    assertErrorBody(t, await api('PUT', `/api/dms-file/${id}`, { token, body: { version: 0, description: 'mine now' } }), 404, 'SVC-SYS-4001');
    assertErrorBody(t, await api('PUT', `/api/dms-file/${id}/category?categoryId=${g.categories.open.id}`, { token }), 404, 'SVC-SYS-4001');
    assertErrorBody(t, await api('DELETE', `/api/dms-file/${id}`, { token }), 404, 'SVC-SYS-4001');
  }
  // untouched: the super user still reads it as it was
  t.like((await api('GET', `/api/dms-file/${g.files.guarded}`, { token: g.admin })).body, { version: 0, deleted: false, categoryId: g.categories.guarded.id });
});

test('the list and its totalElements, by-entity, the file search and the global search leave such files out', async (t) => {
  const g = await guardedTenant();
  const readable = sorted(g.files.open, g.files.loose);
  t.deepEqual(await found(g, g.clerk.token), { list: readable, total: 2, byEntity: readable, search: readable, global: readable });
  // a later page counts as the first does
  const second = await api('POST', '/api/dms-file/list', { token: g.clerk.token, body: { page: 1, size: 1, filter: { crProcessId: g.tenant } } });
  t.like(second.body, { totalElements: 2, totalPages: 2, last: true });
  t.deepEqual(
    second.body.content.map((file: { id: number }) => file.id),
    [readable[1]],
  );
});

test('given the role, the very next request reads the guarded files; taken away, the very next request is 404 again', async (t) => {
  const g = await guardedTenant();
  const token = g.clerk.token;
  assertErrorBody(t, await api('GET', `/api/dms-file/${g.files.guarded}`, { token }), 404, 'SVC-SYS-4001');
  const grant = await createGroupWithRoles(g.tenant, [g.role], [g.clerk.userCode]);
  t.is((await api('GET', `/api/dms-file/${g.files.guarded}`, { token })).status, 200);
  t.is((await api('GET', `/api/dms-file/${g.files.below}`, { token })).status, 200);
  const all = sorted(g.files.guarded, g.files.below, g.files.open, g.files.loose);
  t.deepEqual(await found(g, token), { list: all, total: 4, byEntity: all, search: all, global: all });

  const memberships = await api('POST', '/api/group-member/list', {
    token: g.admin,
    body: { page: 0, size: 5, filter: { crProcessId: g.tenant, groupId: grant.id } },
  });
  t.is((await api('DELETE', `/api/group-member/${memberships.body.content[0].id}`, { token: g.admin })).status, 204);
  assertErrorBody(t, await api('GET', `/api/dms-file/${g.files.guarded}`, { token }), 404, 'SVC-SYS-4001');
  t.deepEqual((await found(g, token)).list, sorted(g.files.open, g.files.loose));
});

test("a category inherits the readRoles above it: a parent's role guards its sub-categories' files, and each level's role is needed", async (t) => {
  const g = await guardedTenant();
  const deeper = `${unique('pay')}:read`;
  const leaf = await create('dms-category', { crProcessId: g.tenant, categoryName: unique('Salaries '), parentId: g.categories.below.id, readRole: deeper });
  const res = await upload({ token: g.admin, crProcessId: g.tenant, content: 'salary', fields: { categoryId: String(leaf.id) } });
  t.is(res.status, 200, res.text);
  const salary = res.body.fileId as number;

  const hr = await userWithRoles(g.account, [...FILE_ROLES, g.role]);
  t.is((await api('GET', `/api/dms-file/${g.files.below}`, { token: hr.token })).status, 200, "the parent's role reads the sub-category");
  assertErrorBody(t, await api('GET', `/api/dms-file/${salary}`, { token: hr.token }), 404, 'SVC-SYS-4001');
  const payroll = await userWithRoles(g.account, [...FILE_ROLES, deeper]);
  assertErrorBody(t, await api('GET', `/api/dms-file/${salary}`, { token: payroll.token }), 404, 'SVC-SYS-4001');
  const both = await userWithRoles(g.account, [...FILE_ROLES, g.role, deeper]);
  t.is((await api('GET', `/api/dms-file/${salary}`, { token: both.token })).status, 200);

  // the parent's role lifted: the sub-category is open to dms-file:read again
  const parent = (await api('GET', `/api/dms-category/${g.categories.guarded.id}`, { token: g.admin })).body;
  t.is((await api('PUT', `/api/dms-category/${parent.id}`, { token: g.admin, body: { version: parent.version, readRole: null } })).status, 200);
  t.is((await api('GET', `/api/dms-file/${g.files.below}`, { token: g.clerk.token })).status, 200);
});

test("a super user reads every file whatever the categories' readRoles", async (t) => {
  const g = await guardedTenant();
  const all = sorted(g.files.guarded, g.files.below, g.files.open, g.files.loose);
  const seen = await found(g, g.admin);
  t.deepEqual({ list: seen.list, total: seen.total, byEntity: seen.byEntity, search: seen.search }, { list: all, total: 4, byEntity: all, search: all });
  for (const id of all) t.is((await api('GET', `/api/dms-file/${id}`, { token: g.admin })).status, 200);
});

test('filing into a category the caller may not read is refused as for a category that does not exist: 400 SVC-SYS-2001 on categoryId', async (t) => {
  const g = await guardedTenant();
  const token = g.clerk.token;
  const refused = await upload({ token, crProcessId: g.tenant, content: 'into hr', fields: { categoryId: String(g.categories.below.id) } });
  assertInvalid(t, refused, 'categoryId');
  const nowhere = await upload({ token, crProcessId: g.tenant, content: 'into none', fields: { categoryId: '999999999999' } });
  t.deepEqual(refused.body, nowhere.body, 'the same answer as a category that does not exist');
  assertInvalid(t, await api('PUT', `/api/dms-file/${g.files.open}/category?categoryId=${g.categories.guarded.id}`, { token }), 'categoryId');
  assertInvalid(t, await api('PUT', `/api/dms-file/${g.files.open}`, { token, body: { version: 0, categoryId: g.categories.below.id } }), 'categoryId');
  t.like((await api('GET', `/api/dms-file/${g.files.open}`, { token })).body, { version: 0, categoryId: g.categories.open.id });
  // a readable category is fine
  t.is((await api('PUT', `/api/dms-file/${g.files.loose}/category?categoryId=${g.categories.open.id}`, { token })).status, 200);
});

test('a share link to a file the caller may not read is refused as to no file: 400 SVC-SYS-2001 on fileId', async (t) => {
  const g = await guardedTenant();
  const token = g.clerk.token;
  assertInvalid(t, await api('POST', '/api/dms-share-link', { token, body: { crProcessId: g.tenant, fileId: g.files.guarded } }), 'fileId');
  const opened = await api('POST', '/api/dms-share-link', { token, body: { crProcessId: g.tenant, fileId: g.files.open } });
  t.is(opened.status, 200, opened.text);
});

test('a readRole of the wrong shape is 400 SVC-SYS-2001 naming readRole, on create and update; a role code of 100 characters is kept', async (t) => {
  const admin = (await adminSession()).token;
  const { crProcessId } = await createAccount();
  for (const readRole of ['', 'hr read', ' hr:read', 'hr:read\t', 'x'.repeat(101), 7]) {
    assertInvalid(t, await api('POST', '/api/dms-category', { token: admin, body: { crProcessId, categoryName: unique('Bad '), readRole } }), 'readRole');
  }
  const long = `${'r'.repeat(95)}:read`;
  const kept = await create('dms-category', { crProcessId, categoryName: unique('Long '), readRole: long });
  t.is(kept.readRole, long);
  const update = await api('PUT', `/api/dms-category/${kept.id}`, { token: admin, body: { version: kept.version, readRole: 'two words' } });
  assertInvalid(t, update, 'readRole');
  t.is((await api('GET', `/api/dms-category/${kept.id}`, { token: admin })).body.readRole, long);
});

test('a share link to such a file, its history and its name in the audit log are hidden as the file is', async (t) => {
  const g = await guardedTenant();
  const reader = await userWithRoles(g.account, ['dms-file:read', 'dms-share-link:read', 'dms-share-link:write', 'dms-audit-log:read']);
  const token = reader.token;
  const [hiddenLink, openLink] = await Promise.all([
    create('dms-share-link', { crProcessId: g.tenant, fileId: g.files.guarded }),
    create('dms-share-link', { crProcessId: g.tenant, fileId: g.files.open }),
  ]);
  // the link carries the token, and so the bytes: 404 and left out, as the file
  assertErrorBody(t, await api('GET', `/api/dms-share-link/${hiddenLink.id}`, { token }), 404, 'SVC-SYS-4001');
  assertErrorBody(t, await api('PUT', `/api/dms-share-link/${hiddenLink.id}`, { token, body: { version: 0, maxDownloads: 9 } }), 404, 'SVC-SYS-4001');
  const links = await api('POST', '/api/dms-share-link/list', { token, body: { page: 0, size: 50, filter: { crProcessId: g.tenant } } });
  t.deepEqual(
    links.body.content.map((link: { id: number }) => link.id),
    [openLink.id],
  );
  t.is(links.body.totalElements, 1);
  t.like((await api('GET', `/api/dms-share-link/stats?crProcessId=${g.tenant}`, { token })).body, { totalCount: 1 });
  t.is((await api('GET', `/api/dms-share-link/${hiddenLink.id}`, { token: g.admin })).status, 200, 'the super user still reads it');

  assertErrorBody(t, await api('GET', `/api/dms-file/${g.files.guarded}/history`, { token }), 404, 'SVC-SYS-4001');
  assertErrorBody(t, await api('GET', `/api/dms-share-link/${hiddenLink.id}/history`, { token }), 404, 'SVC-SYS-4001');
  t.is((await api('GET', `/api/dms-file/${g.files.open}/history`, { token })).status, 200);

  const names = async (fileId: number) => {
    const rows = await api('POST', '/api/dms-audit-log/list', { token, body: { page: 0, size: 50, filter: { crProcessId: g.tenant, fileId } } });
    t.is(rows.status, 200, rows.text);
    t.true(rows.body.content.length > 0);
    return rows.body.content.map((row: { fileName?: string }) => row.fileName ?? null);
  };
  t.true((await names(g.files.open)).every((name: string | null) => name === `${g.word}-open.txt`));
  t.true(
    (await names(g.files.guarded)).every((name: string | null) => name === null),
    'the audit rows stay, without the name',
  );

  // given the role, all of it is there at the next request
  await createGroupWithRoles(g.tenant, [g.role], [reader.userCode]);
  t.is((await api('GET', `/api/dms-share-link/${hiddenLink.id}`, { token })).status, 200);
  t.is((await api('GET', `/api/dms-file/${g.files.guarded}/history`, { token })).status, 200);
  t.true((await names(g.files.guarded)).every((name: string | null) => name === `${g.word}-guarded.txt`));
});

test('a personal access token reads a guarded file only when the role is among its own roles, as its user holds it', async (t) => {
  const g = await guardedTenant();
  const hr = await userWithRoles(g.account, [...FILE_ROLES, g.role]);
  const narrow = await accessTokenFor(hr.token, g.tenant, ['dms-file:read']);
  const wide = await accessTokenFor(hr.token, g.tenant, ['dms-file:read', g.role]);
  assertErrorBody(t, await api('GET', `/api/dms-file/${g.files.guarded}`, { token: narrow.token }), 404, 'SVC-SYS-4001');
  t.is((await api('GET', `/api/dms-file/${g.files.open}`, { token: narrow.token })).status, 200);
  t.is((await api('GET', `/api/dms-file/${g.files.guarded}`, { token: wide.token })).status, 200);
});
