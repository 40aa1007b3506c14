import type { Server } from '@grpc/grpc-js';
import type { EntitySchema } from '@mikro-orm/postgresql';
import { crudHandlers } from './handlers.ts';
import { resourceRuntime, type ResourceHooks, type ResourceRuntime } from './runtime.ts';
import type { Row } from '../db/entity-schema.ts';
import { implement, type Handler, type Runtime } from '../grpc/server.ts';
import { answersWith } from '../grpc/answer-writer.ts';
import { methodNames, offers, type MessageEncoder, type Resource } from '@platform/kit/resource/resource.ts';

/** What one resource does beyond the CRUD set: hooks inside its writes, and extra RPCs of its service. */
export interface ResourceOverrides {
  hooks?: ResourceHooks;
  /** Extra handlers by grpc-js method name, given the runtimes of the service's resources by path. */
  handlers?(runtimes: ReadonlyMap<string, ResourceRuntime>): Record<string, Handler<never, unknown>>;
}

/**
 * Serves every resource of a service: its CRUD set from the declaration, with the overrides a
 * resource has. A new entity needs its declaration in the service's resource list and nothing here.
 *
 * @example
 * registerResources(server, runtime, schemas, bpmResources, { branch: { handlers: (rts) => ({ listBranchesByPartner }) } });
 */
export function registerResources(
  server: Server,
  runtime: Runtime,
  entities: ReadonlyMap<string, EntitySchema<Row>>,
  resources: readonly Resource[],
  overrides: Readonly<Record<string, ResourceOverrides>> = {},
): void {
  const unknown = Object.keys(overrides).filter((path) => !resources.some((resource) => resource.path === path));
  if (unknown.length > 0) throw new Error(`overrides for resources this service does not declare: ${unknown.join(', ')}`);
  const runtimes = new Map(resources.map((resource) => [resource.path, resourceRuntime(entities, resource, overrides[resource.path]?.hooks, resources)]));
  for (const [path, rt] of runtimes) {
    const extra = overrides[path]?.handlers?.(runtimes) ?? {};
    server.addService(answersWith(rt.resource.grpc, recordAnswers(rt.resource)), implement(runtime, { ...crudHandlers(rt), ...extra }));
  }
}

/** The methods of a resource's set that answer its record (get, create, update), each with the record's encoder. */
function recordAnswers(resource: Resource): Record<string, MessageEncoder<never>> {
  const names = methodNames(resource);
  const encoders: Record<string, MessageEncoder<never>> = {};
  for (const operation of ['get', 'create', 'update'] as const) {
    if (offers(resource, operation)) encoders[names[operation]] = resource.encoder;
  }
  return encoders;
}
