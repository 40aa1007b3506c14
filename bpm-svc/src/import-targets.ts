import type { ImportTarget } from '@platform/service-kit/import/targets.ts';
import { bpmResources } from '@platform/contracts/bpm/index.ts';
import { accrualHooks } from './resources/accrual/accrual.hooks.ts';

/** The entities of bpm-svc a file may be imported into, with the hooks their writes run (as server.ts registers them). */
export const importTargets: readonly ImportTarget[] = bpmResources.map((resource) => ({
  resource,
  hooks: resource.path === 'accrual' ? accrualHooks : undefined,
}));
