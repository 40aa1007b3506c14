/**
 * The role walk and the tenancy matrix with personal access tokens (docs/adr/0135-a-token-s-roles-stay-within-its-user-s.md):
 * one user of tenant A holds every role of every resource; each of its tokens carries one of them,
 * and is allowed exactly what that role allows (docs/interface.md#identity: get, list and stats need
 * read; create and update need write; delete needs delete), the rest 403 SVC-SYS-1003, though the
 * user holds it. A token of A meets tenant B's records as if they did not exist and may not name B,
 * as tests/tenants.test.ts pins for a login's token.
 */
import test from 'ava';
import { offers, type Operation, type Resource } from '@platform/kit/resource/resource.ts';
import { registry } from '../gateway/src/registry.ts';
import { accessTokenFor } from './helpers/access-tokens.ts';
import { createAccount, userWithRoles, type TenantUser } from './helpers/factories.ts';
import { OPERATIONS, passing, perform, sampleOf, sampleRecord } from './helpers/samples.ts';

type Action = 'read' | 'write' | 'delete';
const ACTION_OF: Record<Operation, Action> = { get: 'read', list: 'read', stats: 'read', create: 'write', update: 'write', delete: 'delete' };
const ACTIONS: readonly Action[] = ['read', 'write', 'delete'];

interface Fixture {
  a: { accountNo: string; crProcessId: number };
  b: { accountNo: string; crProcessId: number };
  user: TenantUser;
  /** A token per role, `<path>:<action>`. */
  tokens: Map<string, string>;
  /** A token with every role of every resource. */
  all: string;
}

let fixture: Fixture;

test.before(async () => {
  const [a, b] = await Promise.all([createAccount(), createAccount()]);
  const roles = registry.flatMap((resource) => ACTIONS.map((action) => `${resource.path}:${action}`));
  const user = await userWithRoles(a, roles);
  const tokens = new Map<string, string>();
  for (let start = 0; start < roles.length; start += 16) {
    await Promise.all(roles.slice(start, start + 16).map(async (role) => tokens.set(role, (await accessTokenFor(user.token, a.crProcessId, [role])).token)));
  }
  const all = (await accessTokenFor(user.token, a.crProcessId, roles)).token;
  fixture = { a, b, user, tokens, all };
});

const offered = (resource: Resource) => OPERATIONS.filter((operation) => offers(resource, operation));

for (const resource of registry) {
  const path = resource.path;
  const each = sampleOf(resource).tenantRecord || sampleOf(resource).onePerTenant ? test.serial : test;

  for (const action of ACTIONS) {
    const granted = offered(resource).filter((operation) => ACTION_OF[operation] === action);
    const refused = offered(resource).filter((operation) => ACTION_OF[operation] !== action);
    each(
      `${path}: a token with ${path}:${action} alone, of a user holding every role, passes ${granted.join(', ') || 'nothing'} and is 403 on ${refused.join(', ') || 'nothing'}`,
      async (t) => {
        const token = fixture.tokens.get(`${path}:${action}`)!;
        const target = { crProcessId: fixture.a.crProcessId, record: await sampleRecord(resource, fixture.a.crProcessId) };
        for (const operation of offered(resource)) {
          const res = await perform(resource, operation, token, target);
          if (granted.includes(operation)) {
            const expected = passing(resource, operation);
            t.is(res.status, expected.status, `${operation}: ${res.text}`);
            if (expected.code) t.is(res.body.error_code, expected.code, operation);
          } else {
            t.is(res.status, 403, `${operation}: ${res.text}`);
            t.is(res.body.error_code, 'SVC-SYS-1003', operation);
          }
        }
      },
    );
  }

  const addressed = (['get', 'update', 'delete'] as const).filter((operation) => offers(resource, operation));
  if (addressed.length > 0) {
    test.serial(`${path}: ${addressed.join(', ')} of tenant B's record are 404 SVC-SYS-4001 for a token of A with every role`, async (t) => {
      const record = await sampleRecord(resource, fixture.b.crProcessId);
      for (const operation of addressed) {
        const res = await perform(resource, operation, fixture.all, { crProcessId: fixture.b.crProcessId, record });
        t.is(res.status, 404, `${operation}: ${res.text}`);
        t.is(res.body.error_code, 'SVC-SYS-4001', operation);
      }
    });
  }

  const naming = (['create', 'list'] as const).filter((operation) => offers(resource, operation));
  if (naming.length > 0) {
    test.serial(`${path}: ${naming.join(' or ')} naming tenant B is 403 SVC-SYS-1003 for a token of A with every role`, async (t) => {
      for (const operation of naming) {
        const res = await perform(resource, operation, fixture.all, { crProcessId: fixture.b.crProcessId, record: {} });
        t.is(res.status, 403, `${operation}: ${res.text}`);
        t.is(res.body.error_code, 'SVC-SYS-1003', operation);
      }
    });
  }
}

test("a token's role of one resource grants nothing on another, though its user holds every role there: for every ordered pair, the other's operation of the same action is 403 SVC-SYS-1003", async (t) => {
  // one record per resource to aim at; nothing may change it
  const targets = new Map(
    await Promise.all(
      registry.map(
        async (resource) => [resource.path, { crProcessId: fixture.a.crProcessId, record: await sampleRecord(resource, fixture.a.crProcessId) }] as const,
      ),
    ),
  );
  const cases = registry.flatMap((holder) =>
    registry
      .filter((other) => other !== holder)
      .flatMap((other) =>
        ACTIONS.flatMap((action) => {
          const operation = offered(other).find((candidate) => ACTION_OF[candidate] === action);
          return operation ? [{ holder, action, other, operation }] : [];
        }),
      ),
  );
  t.true(cases.length > registry.length * (registry.length - 1), 'every ordered pair, by action');
  const CHUNK = 24;
  for (let start = 0; start < cases.length; start += CHUNK) {
    await Promise.all(
      cases.slice(start, start + CHUNK).map(async ({ holder, action, other, operation }) => {
        const res = await perform(other, operation, fixture.tokens.get(`${holder.path}:${action}`)!, targets.get(other.path)!);
        const what = `token of ${holder.path}:${action} on ${other.path} ${operation}`;
        t.is(res.status, 403, `${what}: ${res.text}`);
        t.is(res.body?.error_code, 'SVC-SYS-1003', what);
      }),
    );
  }
});
