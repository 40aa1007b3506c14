import type { MethodDefinition } from '@grpc/grpc-js';
import type { PageMeta, PageRequest, Precondition, Statistics } from '../gen/platform/common/v1/common.ts';
import { methodNames, offers, type Operation, type Resource } from './resource.ts';

/** A record as it travels in a CRUD request or response, field by field. */
export type RecordMessage = Record<string, unknown>;

/** The key of a record in a get, update or delete request: `{ id }` or the declared key (`{ accountNo }`). */
export type KeyRequest = Record<string, number | string>;

/** A delete request: the record's key, and the If-Match behind the call when it had one (docs/interface.md#conditional-requests). */
export type DeleteRequest = Record<string, number | string | Precondition | undefined>;

/**
 * The method definitions of a resource's CRUD set, typed as the CRUD engine's requests and answers
 * (libs/service-kit/src/crud/handlers.ts): the generated definition of each RPC the set offers, found by the
 * names the declaration implies (`getBranch`, `listBranches`, ...). `defineResource` has already
 * checked at compile time that the declaration's `grpc` has each of them, with the record message
 * as the answer of get, create and update (`CrudMethodsOf`).
 */
export interface CrudMethods {
  get: MethodDefinition<KeyRequest, RecordMessage>;
  create?: MethodDefinition<RecordMessage, RecordMessage>;
  update?: MethodDefinition<RecordMessage, RecordMessage>;
  delete?: MethodDefinition<DeleteRequest, unknown>;
  list?: MethodDefinition<{ page: PageRequest }, { content: RecordMessage[]; meta?: PageMeta }>;
  stats?: MethodDefinition<{ crProcessId?: number }, Statistics>;
}

const cache = new WeakMap<Resource, CrudMethods>();

/**
 * The CRUD method definitions of a resource, those its set offers; one missing from its service
 * definition throws (a declaration typed against a service it does not describe).
 *
 * @example
 * const branches = await backends.call('bpm', crudMethods(branch).list!, { page }, metadata);
 */
export function crudMethods(resource: Resource): CrudMethods {
  let methods = cache.get(resource);
  if (methods) return methods;
  const names = methodNames(resource);
  const method = (operation: Operation) => {
    if (!offers(resource, operation)) return undefined;
    const definition = resource.grpc[names[operation]];
    if (!definition) throw new Error(`${resource.path}: its service has no ${names[operation]}`);
    return definition;
  };
  methods = { get: method('get')!, create: method('create'), update: method('update'), delete: method('delete'), list: method('list'), stats: method('stats') };
  cache.set(resource, methods);
  return methods;
}
