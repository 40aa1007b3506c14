import type { Metadata } from '@grpc/grpc-js';
import { DomainError, invalidField } from '@platform/kit/errors/domain-error.ts';
import type { Precondition } from '@platform/kit/gen/platform/common/v1/common.ts';
import { crudMethods, type KeyRequest, type RecordMessage } from '@platform/kit/resource/crud-methods.ts';
import { recordFieldOf, type Resource } from '@platform/kit/resource/resource.ts';
import type { Backends } from '../backends.ts';
import { tagMatches } from '../http/entity-tags.ts';
import { recordFromJson } from '../http/record-json.ts';

/**
 * The three writes of a CRUD set as the single routes make them (routes/crud.ts) and a bulk's items
 * do (routes/bulk.ts): the body read by the same rules, the same RPC with the same metadata. A write
 * the resource does not offer is 404 SVC-SYS-4001 naming the path, as its absent route is.
 */
export interface CrudWrites {
  create(body: unknown, metadata: Metadata, onHeaders?: (headers: Metadata) => void): Promise<RecordMessage>;
  update(key: KeyRequest, body: unknown, ifMatch: Precondition | undefined, metadata: Metadata): Promise<RecordMessage>;
  delete(key: KeyRequest, ifMatch: Precondition | undefined, metadata: Metadata): Promise<void>;
}

export function crudWrites(resource: Resource, backends: Backends): CrudWrites {
  const methods = crudMethods(resource);
  const base = `/api/${resource.path}`;
  const absent = (path: string) => new DomainError('SVC-SYS-4001', 'path.notFound', { path: path.slice(0, 200) });
  const keyPath = (key: KeyRequest) => `${base}/${String(Object.values(key)[0])}`;
  return {
    async create(body, metadata, onHeaders) {
      if (!methods.create) throw absent(base);
      const { record } = recordFromJson(resource, body, 'create');
      return backends.call(resource.service, methods.create, { [recordFieldOf(resource)]: record }, metadata, onHeaders);
    },
    async update(key, body, ifMatch, metadata) {
      if (!methods.update) throw absent(keyPath(key));
      const { record, mask } = recordFromJson(resource, body, 'update');
      if (ifMatch) checkBodyVersion(ifMatch, record.version);
      else if (record.version === undefined) throw new DomainError('SVC-SYS-2001', 'version.required', { field: 'version' });
      return backends.call(resource.service, methods.update, { ...key, [recordFieldOf(resource)]: record, updateMask: mask, ifMatch }, metadata);
    },
    async delete(key, ifMatch, metadata) {
      if (!methods.delete) throw absent(keyPath(key));
      await backends.call(resource.service, methods.delete, { ...key, ifMatch }, metadata);
    },
  };
}

/**
 * An update with If-Match may leave out the body's version; one it sends must be a version the
 * If-Match names (a `*` names any), else 400: the request contradicts itself, and would otherwise be a 409
 * or a 412 depending on the stored version.
 */
function checkBodyVersion(ifMatch: Precondition, version: unknown): void {
  if (version !== undefined && !ifMatch.any && !tagMatches(ifMatch, version)) throw invalidField('version', 'version.notInIfMatch');
}
