/**
 * GET /api/session/daily (docs/interface.md#sessions-and-logs): sessions opened per UTC day over the
 * last `days`, every day present (0 when none), narrowed to a tenant by crProcessId; API key only.
 */
import test from 'ava';
import { createAccount, userWithRoles } from './helpers/factories.ts';
import { assertErrorBody, assertInvalid } from './helpers/error-body.ts';
import { api } from './helpers/platform.ts';

const today = () => new Date().toISOString().slice(0, 10);

test("a tenant's logins of today are counted on today's entry; every day of the window is there, oldest first", async (t) => {
  const account = await createAccount();
  await userWithRoles(account, ['branch:read']);
  await userWithRoles(account, ['branch:read']);
  const res = await api('GET', `/api/session/daily?crProcessId=${account.crProcessId}`, { apiKey: true });
  t.is(res.status, 200, res.text);
  t.is(res.body.length, 14);
  const days = res.body.map((entry: any) => entry.day);
  t.deepEqual(days, [...days].sort(), 'oldest first');
  t.is(new Set(days).size, 14, 'one entry per day');
  t.true(days.at(-1) === today() || days.at(-1) > today(), 'today last (a UTC midnight may pass meanwhile)');
  t.is(
    res.body.reduce((sum: number, entry: any) => sum + entry.count, 0),
    2,
    "the tenant's two logins and no one else's",
  );

  const week = await api('GET', `/api/session/daily?days=3&crProcessId=${account.crProcessId}`, { apiKey: true });
  t.is(week.body.length, 3);
  const all = await api('GET', '/api/session/daily?days=1', { apiKey: true });
  t.true(all.body[0].count >= 2, 'without crProcessId every tenant counts');
});

test('days outside 1 to 92 is 400 naming it; without the API key 401', async (t) => {
  assertInvalid(t, await api('GET', '/api/session/daily?days=0', { apiKey: true }), 'days');
  assertInvalid(t, await api('GET', '/api/session/daily?days=93', { apiKey: true }), 'days');
  assertErrorBody(t, await api('GET', '/api/session/daily'), 401, 'SVC-SYS-1004');
});
