/**
 * docs/adr/0062-a-kept-live-access-and-its-access.md: a service uses the live access it
 * keeps only while the access stamp is the one it was read with, and every transaction that changes
 * what a live access reads moves the stamp as it commits. Here, beneath the API, each kind of change
 * is made in a transaction of its own, its deferred triggers fired (SET CONSTRAINTS ALL IMMEDIATE),
 * and rolled back: whether it moved the stamp is that transaction's own setting, whatever other
 * tests commit meanwhile. Then, through the gateway, a kept access is dropped by a change committed
 * after it was kept, in a transaction that was open when it was, and by its session's expiry.
 *
 * The other kinds, through the API, each after a call that kept the access: a demotion or promotion,
 * a select removed, an account, user-process or user made passive, a group, membership, group-role
 * or role-type made passive and a membership removed (test/live-privileges.test.ts); a new password
 * (tokenVersion) and a logout (test/auth-revocation.test.ts).
 */
import test from 'ava';
import type pg from 'pg';
import { createAccount, createBranch, createPartner, roleTypeOf, userWithRoles, type TenantUser } from './helpers/factories.ts';
import { sql, withDb } from './helpers/db.ts';
import { api } from './helpers/platform.ts';
import { claimsOf } from './helpers/tokens.ts';
import { STAMP_SHARDS } from '../core-svc/src/access-stamp.ts';

/** Whether `statement` moves the stamp, in a transaction that is rolled back. */
async function moves(db: pg.Client, statement: string, params: unknown[]): Promise<boolean> {
  await db.query('begin');
  try {
    const changed = await db.query(statement, params);
    if (changed.rowCount === 0) throw new Error(`changed nothing: ${statement}`);
    await db.query('set constraints all immediate');
    const [row] = (await db.query<{ moved: boolean }>(`select coalesce(current_setting('core.access_stamp_moved', true), '') = 'yes' as moved`)).rows;
    return row!.moved;
  } finally {
    await db.query('rollback');
  }
}

interface Fixture {
  user: TenantUser;
  sid: string;
  crProcessId: number;
  roleTypeId: number;
}

async function fixture(): Promise<Fixture> {
  const account = await createAccount();
  const user = await userWithRoles(account, ['branch:read']);
  const roleType = await roleTypeOf(account.crProcessId, 'branch:read');
  return { user, sid: String(claimsOf(user.token).sid), crProcessId: account.crProcessId, roleTypeId: roleType.id };
}

/** [what, statement, its parameters from the fixture, whether it moves the stamp]. */
const CHANGES: [string, string, (f: Fixture) => unknown[], boolean][] = [
  ['a user made passive', 'update core.user_info set status = false where user_code = $1', (f) => [f.user.userCode], true],
  ["a user's tokenVersion raised", 'update core.user_info set token_version = token_version + 1 where user_code = $1', (f) => [f.user.userCode], true],
  ['a user promoted', 'update core.user_info set super_user = true where user_code = $1', (f) => [f.user.userCode], true],
  [
    "a user's description and updatedAt",
    "update core.user_info set user_description = 'x', updated_at = now() where user_code = $1",
    (f) => [f.user.userCode],
    false,
  ],
  ['a session ended', 'update core.session_log set active = false, logout_at = now() where session_id = $1', (f) => [f.sid], true],
  ["a session's expiry changed", "update core.session_log set expires_at = expires_at - interval '1 minute' where session_id = $1", (f) => [f.sid], true],
  ['a session removed', 'delete from core.session_log where session_id = $1', (f) => [f.sid], true],
  ['a session seen (RecordSessionsSeen)', 'update core.session_log set last_seen_at = now() where session_id = $1', (f) => [f.sid], false],
  [
    'a session switched to another account (switch-account)',
    "update core.session_log set account_no = 'other', cr_process_id = cr_process_id + 1 where session_id = $1",
    (f) => [f.sid],
    false,
  ],
  [
    "a login's new session",
    `insert into core.session_log (session_id, user_code, user_process_id, account_no, cr_process_id, login_at, last_seen_at, expires_at, active)
     select gen_random_uuid(), user_code, user_process_id, account_no, cr_process_id, now(), now(), now() + interval '1 hour', true from core.session_log where session_id = $1`,
    (f) => [f.sid],
    false,
  ],
  ['a user-process made passive', 'update core.user_process set status = false where user_code = $1', (f) => [f.user.userCode], true],
  ["a user-process's description", "update core.user_process set user_description = 'x' where user_code = $1", (f) => [f.user.userCode], false],
  [
    'a select removed',
    'delete from core.user_process_select where user_process_id = (select id from core.user_process where user_code = $1)',
    (f) => [f.user.userCode],
    true,
  ],
  [
    'a select added',
    `insert into core.user_process_select (user_process_id, account_id)
     select p.id, a.id from core.user_process p, core.account a where p.user_code = $1 and a.cr_process_id <> $2 limit 1`,
    (f) => [f.user.userCode, f.crProcessId],
    true,
  ],
  ['an account made passive', 'update core.account set status = false where cr_process_id = $1', (f) => [f.crProcessId], true],
  ["an account's name", "update core.account set account_name = 'x' where cr_process_id = $1", (f) => [f.crProcessId], false],
  ['a group made passive', 'update core.security_group set status = false where id = $1', (f) => [f.user.group.id], true],
  ["a group's name", "update core.security_group set group_name = 'x' where id = $1", (f) => [f.user.group.id], false],
  ['a membership made passive', 'update core.group_member set status = false where group_id = $1', (f) => [f.user.group.id], true],
  ['a membership removed', 'delete from core.group_member where group_id = $1', (f) => [f.user.group.id], true],
  ['a group-role made passive', 'update core.group_role set status = false where group_id = $1', (f) => [f.user.group.id], true],
  ['a group-role removed', 'delete from core.group_role where group_id = $1', (f) => [f.user.group.id], true],
  ['a role-type made passive', 'update core.role_type set status = false where id = $1', (f) => [f.roleTypeId], true],
  ["a role-type's roleCode changed", "update core.role_type set role_code = 'x:read' where id = $1", (f) => [f.roleTypeId], true],
  ["a role-type's name", "update core.role_type set role_name = 'x' where id = $1", (f) => [f.roleTypeId], false],
];

test('each change of what a live access reads moves the stamp in its transaction, and nothing else does: not a login, a session seen or switched', async (t) => {
  const f = await fixture();
  await withDb(async (db) => {
    for (const [what, statement, params, expected] of CHANGES) t.is(await moves(db, statement, params(f)), expected, what);
  });
});

test("a committed change moves its connection's shard of the stamp by one, once for a transaction of many changes", async (t) => {
  const f = await fixture();
  await withDb(async (db) => {
    await db.query('begin');
    await db.query('update core.group_member set status = false where group_id = $1', [f.user.group.id]);
    await db.query('update core.security_group set status = false where id = $1', [f.user.group.id]);
    await db.query('set constraints all immediate');
    const [mine] = (
      await db.query<{ shard: number; stamp: string }>(`select shard, stamp from core.access_stamp where shard = pg_backend_pid() % ${STAMP_SHARDS}`)
    ).rows;
    // this transaction holds its shard's row: no other can move it before this one ends
    const [committed] = await sql<{ stamp: string }>('select stamp from core.access_stamp where shard = $1', [mine!.shard]);
    await db.query('commit');
    t.is(Number(mine!.stamp), Number(committed!.stamp) + 1);
  });
});

test('a kept access is dropped by a change committed after it was kept, in a transaction open while it was', async (t) => {
  const account = await createAccount();
  const partner = await createPartner(account.crProcessId);
  const branch = await createBranch(account.crProcessId, partner.id);
  const user = await userWithRoles(account, ['branch:read']);
  const get = () => api('GET', `/api/branch/${branch.id}`, { token: user.token });
  t.is((await get()).status, 200, 'kept');
  await withDb(async (db) => {
    await db.query('begin');
    await db.query('update core.group_member set status = false where group_id = $1 and user_code = $2', [user.group.id, user.userCode]);
    t.is((await get()).status, 200, 'the change not committed yet');
    t.is((await get()).status, 200, 'kept again');
    await db.query('commit');
  });
  const after = await get();
  t.is(after.status, 403, after.text);
  t.is(after.body.error_code, 'SVC-SYS-1003');
});

test("a kept access is not used past its session's expiry: the next call is 401", async (t) => {
  const account = await createAccount();
  const partner = await createPartner(account.crProcessId);
  const branch = await createBranch(account.crProcessId, partner.id);
  const user = await userWithRoles(account, ['branch:read']);
  await sql("update core.session_log set expires_at = now() + interval '2 seconds' where session_id = $1", [claimsOf(user.token).sid]);
  const get = () => api('GET', `/api/branch/${branch.id}`, { token: user.token });
  t.is((await get()).status, 200, "kept, with the session's new expiry");
  t.is((await get()).status, 200, 'kept');
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  const after = await get();
  t.is(after.status, 401, after.text);
  t.is(after.body.error_code, 'SVC-SYS-1001');
});
