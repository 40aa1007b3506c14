import type { Resource } from '@platform/kit/resource/resource.ts';
import { bpmResources } from './bpm/index.ts';
import { coreResources } from './core/index.ts';
import { dmsResources } from './dms/index.ts';

/** Every resource of the three services by its path: what a reference in an imported file may name, in whichever service. */
export function registryByPath(): ReadonlyMap<string, Resource> {
  return new Map([...coreResources, ...bpmResources, ...dmsResources].map((resource) => [resource.path, resource]));
}
