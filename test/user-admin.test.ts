/**
 * A user who is not a super user administers only users wholly inside its tenant (docs/interface.md#identity:
 * "every record read or written must belong to the current account's crProcessId"): a user-info
 * or user-process of a user with a select for another tenant is changed or deleted only by a super
 * user, since a new password or a lost user-process would reach into that other tenant.
 */
import test from 'ava';
import pg from 'pg';
import { adminSession, create, createAccount, createUser, login, unique, userWithRoles, type TenantUser } from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';

interface Fixture {
  a: { accountNo: string; crProcessId: number };
  b: { accountNo: string; crProcessId: number };
  /** B's user administrator. */
  adminOfB: TenantUser;
}

let fixture: Fixture;

test.before(async () => {
  const [a, b] = await Promise.all([createAccount(), createAccount()]);
  const roles = ['user-info', 'user-process'].flatMap((path) => ['read', 'write', 'delete'].map((action) => `${path}:${action}`));
  fixture = { a, b, adminOfB: await userWithRoles(b, roles) };
});

/** A user stored in B whose user-process (in B too) has selects for `accountNos`. */
function userOfB(accountNos: string[]) {
  const tenant = { crProcessId: fixture.b.crProcessId };
  return createUser(accountNos, tenant, tenant);
}

test("B's administrator may not change the password of B's user who also holds tenant A: 403 SVC-SYS-1003, and the old password still logs in", async (t) => {
  const { a, b, adminOfB } = fixture;
  const { user, password } = await userOfB([a.accountNo, b.accountNo]);
  const res = await api('PUT', `/api/user-info/${user.id}`, { token: adminOfB.token, body: { version: user.version, password: 'taken-over-1' } });
  t.is(res.status, 403, res.text);
  t.is(res.body.error_code, 'SVC-SYS-1003');
  const takeover = await api('POST', '/api/auth/login', { apiKey: true, body: { userCode: user.userCode, password: 'taken-over-1', languageCode: 'en' } });
  t.is(takeover.status, 401);
  t.is((await login(user.userCode, password)).body.success, true);
  // nor any other field, nor the record's deletion
  const renamed = await api('PUT', `/api/user-info/${user.id}`, { token: adminOfB.token, body: { version: user.version, userDescription: 'Renamed' } });
  t.is(renamed.status, 403, renamed.text);
  const deleted = await api('DELETE', `/api/user-info/${user.id}`, { token: adminOfB.token });
  t.is(deleted.status, 403, deleted.text);
  t.is(deleted.body.error_code, 'SVC-SYS-1003');
});

test("a super user may change that user's password; B's administrator may change a user wholly inside B", async (t) => {
  const { a, b, adminOfB } = fixture;
  const spanning = await userOfB([a.accountNo, b.accountNo]);
  const { token } = await adminSession();
  const bySuper = await api('PUT', `/api/user-info/${spanning.user.id}`, { token, body: { version: spanning.user.version, password: 'new-password-1' } });
  t.is(bySuper.status, 200, bySuper.text);
  t.is((await login(spanning.user.userCode, 'new-password-1')).body.success, true);

  const inside = await userOfB([b.accountNo]);
  const byAdminOfB = await api('PUT', `/api/user-info/${inside.user.id}`, {
    token: adminOfB.token,
    body: { version: inside.user.version, password: 'new-password-2' },
  });
  t.is(byAdminOfB.status, 200, byAdminOfB.text);
  t.is((await login(inside.user.userCode, 'new-password-2')).body.success, true);
});

test("B's administrator may not give a user-process to a user stored in another tenant: 403 SVC-SYS-1003", async (t) => {
  const { a, b, adminOfB } = fixture;
  const ofA = await create('user-info', { crProcessId: a.crProcessId, userCode: unique('of-a-'), userDescription: 'Of A', password: 'of-a-password-1' });
  const res = await api('POST', '/api/user-process', {
    token: adminOfB.token,
    body: { crProcessId: b.crProcessId, userCode: ofA.userCode, userProcessSelects: [{ accountNo: b.accountNo }] },
  });
  t.is(res.status, 403, res.text);
  t.is(res.body.error_code, 'SVC-SYS-1003');
  const unknown = await api('POST', '/api/user-process', {
    token: adminOfB.token,
    body: { crProcessId: b.crProcessId, userCode: unique('nobody-'), userProcessSelects: [{ accountNo: b.accountNo }] },
  });
  t.is(unknown.status, 400, unknown.text);
  t.is(unknown.body.message, 'Field userCode names no user');
});

test("a user-process's userCode never changes (400 SVC-SYS-2001), so its selects cannot be handed to another user", async (t) => {
  const { b } = fixture;
  const [first, second] = await Promise.all([
    userOfB([b.accountNo]),
    create('user-info', { crProcessId: b.crProcessId, userCode: unique('b-'), userDescription: 'B', password: 'b-password-1' }),
  ]);
  const { token } = await adminSession();
  const res = await api('PUT', `/api/user-process/${first.process.id}`, { token, body: { version: first.process.version, userCode: second.userCode } });
  t.is(res.status, 400, res.text);
  t.is(res.body.error_code, 'SVC-SYS-2001');
});

/** Sessions waiting, directly or behind another waiter, on a lock this session holds. */
const BLOCKED_BY_ME = `with recursive blocked(pid) as (
  select pid from pg_stat_activity where pg_backend_pid() = any(pg_blocking_pids(pid))
  union select a.pid from pg_stat_activity a join blocked b on b.pid = any(pg_blocking_pids(a.pid))
) select count(*)::int as n from blocked`;

test("writes that change a user's selects, or decide on them, wait while the user's row is held: none races past another", async (t) => {
  const { a, b } = fixture;
  const { user, process } = await userOfB([b.accountNo]);
  const group = await create('group', { crProcessId: b.crProcessId, groupName: unique('B group ') });
  const { token } = await adminSession();
  const db = new pg.Client({ connectionString: platform.databaseUrl });
  await db.connect();
  try {
    // hold the user's row as a user-info update (a password change deciding on the selects) does
    await db.query('begin');
    await db.query('select 1 from core.user_info where user_code = $1 for update', [user.userCode]);
    const settled = new Set<string>();
    const pending = {
      select: api('PUT', `/api/user-process/${process.id}`, {
        token,
        body: { version: process.version, userProcessSelects: [{ accountNo: a.accountNo }, { accountNo: b.accountNo }] },
      }),
      member: api('POST', '/api/group-member', { token, body: { crProcessId: b.crProcessId, groupId: group.id, userCode: user.userCode } }),
    };
    for (const [name, request] of Object.entries(pending)) void request.then(() => settled.add(name));
    // both wait on this session's lock in PostgreSQL (as test/faults-drain.test.ts looks: the
    // statistics snapshot cleared before each look; only sessions blocked by this one count). The
    // second waiter on a row queues behind the first, which PostgreSQL names as its blocker: the
    // chain from this session is followed.
    let blocked = 0;
    for (const started = Date.now(); Date.now() - started < 10_000 && blocked < 2 && settled.size === 0;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await db.query('select pg_stat_clear_snapshot()');
      const { rows } = await db.query<{ n: number }>(BLOCKED_BY_ME);
      blocked = rows[0]?.n ?? 0;
    }
    t.is(blocked, 2, 'both writes wait on the held row in PostgreSQL');
    t.deepEqual([...settled], [], 'neither answered while the row was held');
    await db.query('commit');
    const [select, member] = await Promise.all([pending.select, pending.member]);
    t.is(select.status, 200, select.text);
    t.is(member.status, 200, member.text);
  } finally {
    await db.query('rollback').catch(() => {});
    await db.end();
  }
});
