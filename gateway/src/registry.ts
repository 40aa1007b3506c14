import { bpmResources } from '@platform/bpm-svc/resources/index.ts';
import { dmsResources } from '@platform/dms-svc/resources/index.ts';
import { coreResources } from '@platform/core-svc/resources/index.ts';
import type { Resource } from '@platform/libs/resource/resource.ts';

/** Every resource the gateway serves, from the services' own declarations. */
export const registry: readonly Resource[] = [...coreResources, ...bpmResources, ...dmsResources];
