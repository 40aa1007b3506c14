import type { ImportTarget } from '@platform/service-kit/import/targets.ts';
import { coreResources } from '@platform/contracts/core/index.ts';
import { groupMemberHooks } from './resources/group-member/group-member.operations.ts';
import { licenseHooks } from './resources/license/license.operations.ts';
import { userProcessHooks } from './resources/user-process/user-process.operations.ts';

/**
 * The entities of core-svc a file may be imported into, with the hooks their writes run (as
 * server.ts registers them). Not the users (passwords), the identity providers nor the webhooks,
 * whose writes check more than a row's values (their secrets and targets).
 */
const NOT_IMPORTED = new Set(['user-info', 'identity-provider', 'webhook-subscription', 'webhook-delivery']);
const HOOKS = { 'group-member': groupMemberHooks, license: licenseHooks, 'user-process': userProcessHooks } as const;

export const importTargets: readonly ImportTarget[] = coreResources
  .filter((resource) => !NOT_IMPORTED.has(resource.path))
  .map((resource) => ({ resource, hooks: (HOOKS as Record<string, ImportTarget['hooks']>)[resource.path] }));
