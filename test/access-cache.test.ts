/**
 * libs/service-kit/src/auth/access-cache.ts: what a process keeps of the live accesses it read is bounded in
 * entries and in age, never outlives its session's expiry, and an entry older than a stamp already
 * read is not checked again (docs/adr/0062-a-kept-live-access-and-its-access.md).
 */
import test from 'ava';
import { AccessCache, type KeptAccess } from '@platform/service-kit/auth/access-cache.ts';

const NOW = 1_000_000;

function kept(stamp: number, changes: Partial<KeptAccess> = {}): KeptAccess {
  return { stamp, superUser: false, tenantHeld: true, roles: ['branch:read'], expiresAt: NOW + 3_600_000, readAt: NOW, ...changes };
}

test('the key names the user, session, tokenVersion, tenant and the roles asked', (t) => {
  const claims = { userCode: 'u', sid: 's', tokenVersion: 1, crProcessId: 7 };
  const key = AccessCache.keyOf(claims, new Set(['branch:read']));
  t.not(key, AccessCache.keyOf({ ...claims, tokenVersion: 2 }, new Set(['branch:read'])));
  t.not(key, AccessCache.keyOf({ ...claims, sid: 't' }, new Set(['branch:read'])));
  t.not(key, AccessCache.keyOf({ ...claims, crProcessId: 8 }, new Set(['branch:read'])));
  t.not(key, AccessCache.keyOf(claims, new Set(['branch:write'])));
  t.is(key, AccessCache.keyOf({ ...claims }, new Set(['branch:read'])));
});

test('past its limit the oldest entry goes', (t) => {
  const cache = new AccessCache(2, 60_000);
  cache.keep('a', kept(1));
  cache.keep('b', kept(1));
  cache.keep('c', kept(1));
  t.is(cache.size, 2);
  t.is(cache.candidate('a', NOW), undefined);
  t.truthy(cache.candidate('b', NOW));
  t.truthy(cache.candidate('c', NOW));
});

test("an entry is not handed out past its session's expiry or its own age, and is dropped", (t) => {
  const cache = new AccessCache(10, 60_000);
  cache.keep('expiring', kept(1, { expiresAt: NOW + 1_000 }));
  cache.keep('old', kept(1));
  t.truthy(cache.candidate('expiring', NOW + 999));
  t.is(cache.candidate('expiring', NOW + 1_000), undefined);
  t.truthy(cache.candidate('old', NOW + 60_000));
  t.is(cache.candidate('old', NOW + 60_001), undefined);
  t.is(cache.size, 0);
});

test('an entry older than a stamp already read is dropped unchecked; a full read of an older stamp lowers that mark', (t) => {
  const cache = new AccessCache(10, 60_000);
  cache.keep('a', kept(5));
  cache.keep('b', kept(5));
  cache.saw(6);
  t.is(cache.candidate('a', NOW), undefined);
  // the counter started again (a database restored): the entries read since are checked again
  cache.keep('c', kept(2));
  t.truthy(cache.candidate('c', NOW));
  t.truthy(cache.candidate('b', NOW), "not older than the mark now: the stamp's check decides");
});
