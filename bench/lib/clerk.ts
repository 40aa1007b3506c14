/**
 * A clerk: a user of tenant 1 who is not a super user and holds every role of the tenant, read,
 * write and delete of every resource, through two groups (one granting all, the other every read
 * again), built through the API as an administrator would. A super user's call skips the role and
 * tenant checks; a clerk's takes them, as most users' calls do.
 */
import { randomBytes } from 'node:crypto';
import { registry } from '../../gateway/src/registry.ts';
import { expectStatus, http, login, type BenchPlatform } from './platform.ts';
import { BenchError } from './scenario.ts';

const TENANT = 1;
const ACCOUNT_NO = 'DEFAULT';
/** Requests the set-up keeps in flight. */
const PARALLEL = 8;

/** Logs the clerk in; its token. `adminToken` makes everything it needs. */
export async function clerkToken(platform: BenchPlatform, adminToken: string): Promise<{ token: string; roles: number }> {
  const auth = { authorization: `Bearer ${adminToken}` };
  const post = async (path: string, body: Record<string, unknown>): Promise<number> => {
    const answer = await expectStatus(`POST /api/${path}`, http('POST', `${platform.url}/api/${path}`, { headers: auth, body }));
    const id = (answer.json as { id?: unknown } | undefined)?.id;
    if (typeof id !== 'number') throw new BenchError(`POST /api/${path}: no numeric id in ${answer.text.slice(0, 300)}`);
    return id;
  };
  const suffix = randomBytes(4).toString('hex');
  const roleCodes = registry.flatMap((resource) => ['read', 'write', 'delete'].map((action) => `${resource.path}:${action}`));
  const roleTypeIds = await inBatches(roleCodes, (roleCode) => post('role-type', { crProcessId: TENANT, roleCode, roleName: roleCode }));
  const [all, reads] = await Promise.all([
    post('group', { crProcessId: TENANT, groupName: `Clerks ${suffix}` }),
    post('group', { crProcessId: TENANT, groupName: `Readers ${suffix}` }),
  ]);
  const grants = roleTypeIds.flatMap((roleTypeId, i) =>
    roleCodes[i]?.endsWith(':read')
      ? [
          [all, roleTypeId],
          [reads, roleTypeId],
        ]
      : [[all, roleTypeId]],
  );
  await inBatches(grants, ([groupId, roleTypeId]) => post('group-role', { crProcessId: TENANT, groupId, roleTypeId }));

  const userCode = `clerk-${suffix}`;
  const password = randomBytes(18).toString('base64url');
  await post('user-info', { crProcessId: TENANT, userCode, userDescription: 'Bench clerk', password });
  await post('user-process', { crProcessId: TENANT, userCode, userProcessSelects: [{ accountNo: ACCOUNT_NO }] });
  await Promise.all([all, reads].map((groupId) => post('group-member', { crProcessId: TENANT, groupId, userCode })));
  return { token: await login(platform, userCode, password), roles: roleCodes.length };
}

async function inBatches<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += PARALLEL) results.push(...(await Promise.all(items.slice(i, i + PARALLEL).map(work))));
  return results;
}
