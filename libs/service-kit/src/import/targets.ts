import type { EntitySchema } from '@mikro-orm/postgresql';
import type { Resource } from '@platform/kit/resource/resource.ts';
import type { Row } from '../db/entity-schema.ts';
import { resourceRuntime, type ResourceHooks, type ResourceRuntime } from '../crud/runtime.ts';

/**
 * An entity a service imports into, with the hooks its writes run: the same ones its server
 * registers (crud/register-resources.ts), so that an imported record is written as one sent alone.
 */
export interface ImportTarget {
  resource: Resource;
  hooks?: ResourceHooks | undefined;
}

/** The runtimes the worker's import job writes with, by path. */
export function importRuntimes(
  entities: ReadonlyMap<string, EntitySchema<Row>>,
  targets: readonly ImportTarget[],
  resources: readonly Resource[] = targets.map((target) => target.resource),
): ReadonlyMap<string, ResourceRuntime> {
  return new Map(targets.map((target) => [target.resource.path, resourceRuntime(entities, target.resource, target.hooks, resources)]));
}
