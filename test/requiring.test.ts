/**
 * libs/service-kit/src/grpc/requiring.ts and authorize (libs/service-kit/src/auth/caller.ts): a method names the role it
 * needs once; the caller's live access is read for that role alone, and the check runs before the
 * method. docs/interface.md#identity: "Missing role: 403 SVC-SYS-1003"; a super user passes every role check.
 * A check of a role the access was not read for would refuse a user who holds it, so it fails the
 * call as a defect (an Error, answered 500 SVC-SYS-5001), for a super user too, where a test finds it.
 */
import test from 'ava';
import type { LiveAccess } from '@platform/service-kit/auth/access.ts';
import { authorize, type CallContext } from '@platform/service-kit/auth/caller.ts';
import type { VerifiedClaims } from '@platform/kit/auth/jwt.ts';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import { requiring } from '@platform/service-kit/grpc/requiring.ts';

const claims: VerifiedClaims = {
  sub: 'clerk',
  userProcessId: 1,
  userCode: 'clerk',
  userDescription: 'Clerk',
  superUser: false,
  tokenVersion: 0,
  accountNo: 'ACC',
  crProcessId: 7,
  sid: '00000000-0000-4000-8000-000000000000',
  lang: 'en',
  iat: 0,
  exp: 0,
};

function userCall(access: Partial<LiveAccess>): CallContext {
  return {
    em: undefined as never,
    caller: { kind: 'user', claims, access: { superUser: false, tenantHeld: true, roles: new Set(), asked: new Set(), ...access } },
    lang: 'en',
    projectCode: undefined,
  };
}

const method = requiring('branch:read', async (request: { id: number }) => `ran for ${request.id}`);

test('requiring names its role for the access read', (t) => {
  t.deepEqual([...(method.roles ?? [])], ['branch:read']);
});

test('a user holding the role in its tenant runs the method', async (t) => {
  const ctx = userCall({ asked: new Set(['branch:read']), roles: new Set(['branch:read']) });
  t.is(await method({ id: 1 }, ctx), 'ran for 1');
});

test('a user without the role is refused 403 SVC-SYS-1003 before the method runs', async (t) => {
  let ran = false;
  const guarded = requiring('branch:read', async () => {
    ran = true;
  });
  const error = await t.throwsAsync(async () => guarded({}, userCall({ asked: new Set(['branch:read']) })));
  t.true(error instanceof DomainError);
  t.is((error as DomainError).code, 'SVC-SYS-1003');
  t.false(ran);
});

test('a super user runs the method without holding the role; so does another platform service', async (t) => {
  t.is(await method({ id: 2 }, userCall({ superUser: true, asked: new Set(['branch:read']) })), 'ran for 2');
  const internal: CallContext = { em: undefined as never, caller: { kind: 'internal', service: 'platform' }, lang: 'en', projectCode: undefined };
  t.is(await method({ id: 3 }, internal), 'ran for 3');
});

test('checking a role the access was not read for is a defect, not a refusal, for a super user too', (t) => {
  for (const superUser of [false, true]) {
    const ctx = userCall({ superUser, asked: new Set(['branch:read']), roles: new Set(['branch:read']) });
    const error = t.throws(() => authorize(ctx, 'branch:write'));
    t.false(error instanceof DomainError, `superUser ${superUser}: ${String(error)}`);
    t.regex(error?.message ?? '', /branch:write/);
  }
});
