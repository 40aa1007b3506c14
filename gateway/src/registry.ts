import { bpmResources } from '@platform/contracts/bpm/index.ts';
import { dmsResources } from '@platform/contracts/dms/index.ts';
import { coreResources } from '@platform/contracts/core/index.ts';
import type { Resource } from '@platform/kit/resource/resource.ts';

/** Every resource the gateway serves, from the services' own declarations. */
export const registry: readonly Resource[] = [...coreResources, ...bpmResources, ...dmsResources];
