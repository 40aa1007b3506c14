import type { Request, Response } from 'express';
import { DomainError, unauthenticated } from '@platform/kit/errors/domain-error.ts';
import { crudMethods, type KeyRequest, type RecordMessage } from '@platform/kit/resource/crud-methods.ts';
import type { PageMeta } from '@platform/kit/gen/platform/common/v1/common.ts';
import { keyOf, offers, type Operation, type Resource } from '@platform/kit/resource/resource.ts';
import { toMetadata } from '@platform/kit/grpc/metadata.ts';
import { IDEMPOTENCY_KEY_HEADER, idempotencyKeyOf, REPLAYED_HEADER } from '@platform/kit/idempotency/idempotency-key.ts';
import type { Metadata } from '@grpc/grpc-js';
import type { Backends } from '../backends.ts';
import { clientIp, languageOf, requestIdOf, stateOf } from '../http/context.ts';
import { entityTagOf, tagCondition, tagMatches } from '../http/entity-tags.ts';
import { idParam } from '../http/params.ts';
import { sendJson } from '../http/json-answer.ts';
import { pageJson } from '../http/page-json.ts';
import { pageRequestFromJson, recordToJson, type JsonObject } from '../http/record-json.ts';
import { bulkRoute, type BulkDeps } from './bulk.ts';
import { crudWrites } from './crud-writes.ts';
import { routerFor, type RouteGroup, type RouteSpec } from './route.ts';
import { exportFormatOf, sendExport } from '../export/export-route.ts';

/**
 * The metadata of a call made for the request's user: its token, language and client details, and
 * for a create the Idempotency-Key it came with.
 */
export function userMetadata(req: Request, res: Response, idempotencyKey?: string): Metadata {
  const token = stateOf(res).token;
  if (!token) throw unauthenticated();
  return toMetadata({
    token,
    lang: languageOf(req, res),
    projectCode: header(req, 'x-project-code'),
    httpPath: req.originalUrl.slice(0, 1000),
    httpMethod: req.method,
    clientIp: clientIp(req),
    userAgent: header(req, 'user-agent'),
    requestId: requestIdOf(req),
    idempotencyKey,
  });
}

export function header(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value.slice(0, 1000) : undefined;
}

/** The method of an operation the route table serves only when the set offers it (crudRouteTable). */
function offered<T>(method: T | undefined): T {
  if (!method) throw new Error('a route of an operation the resource does not offer');
  return method;
}

/** A record key of a path, checked as the resource's key: a positive id, or text up to 255 characters (400 SVC-SYS-2001). */
export function keyParam(resource: Resource, raw: string | undefined): KeyRequest {
  const key = keyOf(resource);
  if (key === 'id') return { id: idParam(raw) };
  if (raw === undefined || raw === '' || raw.length > 255) throw new DomainError('SVC-SYS-2001', 'param.invalid', { param: key });
  return { [key]: raw };
}

/** Serialises a page of records as the interface's PageResponse. */
export function pageToJson(resource: Resource, content: RecordMessage[], meta: PageMeta | undefined): JsonObject {
  return pageJson(
    content.map((record) => recordToJson(resource, record)),
    meta,
  );
}

/** The routes of one resource's CRUD set, by operation; `stats` is there even without statistics (a 404). */
export type CrudRouteTable = {
  stats: RouteSpec;
  list?: RouteSpec;
  export?: RouteSpec;
  create?: RouteSpec;
  get: RouteSpec;
  update?: RouteSpec;
  delete?: RouteSpec;
  /** POST /{path}/bulk: creates, updates and deletes in one request, where the set offers any of them (routes/bulk.ts). */
  bulk?: RouteSpec;
};

/**
 * The REST routes of a resource's CRUD set (docs/interface.md#crud) that it offers (docs/interface.md#entities), in
 * the order they are matched: GET /{path}/stats (`?crProcessId=` alone), POST /{path}/list,
 * POST /{path}/export (`?format=`, with the list), POST /{path}, GET|PUT|DELETE /{path}/{key}, POST /{path}/bulk.
 */
export function crudRouteTable(resource: Resource): CrudRouteTable {
  const base = `/api/${resource.path}`;
  const route = (operation: Operation, spec: RouteSpec) => (offers(resource, operation) ? spec : undefined);
  return {
    // a resource without statistics has no such path (rather than 400 for a record key "stats")
    stats: offers(resource, 'stats')
      ? { method: 'get', path: `${base}/stats`, query: { crProcessId: 'id' } }
      : { method: 'get', path: `${base}/stats`, notFoundOnly: true },
    list: route('list', { method: 'post', path: `${base}/list` }),
    export: route('list', { method: 'post', path: `${base}/export`, query: { format: 'text' } }),
    create: route('create', { method: 'post', path: base }),
    get: { method: 'get', path: `${base}/:key` },
    update: route('update', { method: 'put', path: `${base}/:key` }),
    delete: route('delete', { method: 'delete', path: `${base}/:key` }),
    bulk: (['create', 'update', 'delete'] as const).some((operation) => offers(resource, operation)) ? { method: 'post', path: `${base}/bulk` } : undefined,
  };
}

/** The REST routes of every resource's CRUD set, each translated to its RPC: a route group per resource. */
export function crudRoutes(resources: readonly Resource[], backends: Backends, deps: BulkDeps): RouteGroup[] {
  return resources.map((resource) => {
    const methods = crudMethods(resource);
    const writes = crudWrites(resource, backends);
    const bulk = bulkRoute(resource, writes, deps, (req, res) => userMetadata(req, res));

    return routerFor(crudRouteTable(resource), {
      stats: async (req, res, query: { crProcessId?: number }) => {
        if (!methods.stats) throw new DomainError('SVC-SYS-4001', 'path.notFound', { path: req.path.slice(0, 200) });
        sendJson(res, await backends.call(resource.service, methods.stats, query, userMetadata(req, res)));
      },
      list: async (req, res) => {
        const page = pageRequestFromJson(req.body);
        const response = await backends.call(resource.service, offered(methods.list), { page }, userMetadata(req, res));
        sendJson(res, pageToJson(resource, response.content, response.meta));
      },
      export: async (req, res, query: { format?: string }) => {
        await sendExport(req, res, resource, backends, exportFormatOf(query.format), userMetadata(req, res));
      },
      create: async (req, res) => {
        const idempotencyKey = idempotencyKeyOf(req.headers[IDEMPOTENCY_KEY_HEADER]);
        const created = await writes.create(req.body, userMetadata(req, res, idempotencyKey), (headers) => {
          if (headers.get(REPLAYED_HEADER)[0] === 'true') res.setHeader('Idempotent-Replayed', 'true');
        });
        sendJson(res, recordToJson(resource, created));
      },
      get: async (req, res) => {
        // read before the record: a malformed one is 400 without the record's ETag (docs/interface.md#conditional-requests)
        const ifNoneMatch = tagCondition('If-None-Match', req.headers['if-none-match']);
        const record = await backends.call(resource.service, methods.get, keyParam(resource, req.params.key), userMetadata(req, res));
        res.setHeader('ETag', entityTagOf(record.version));
        // it names the record's version (or is `*`): 304
        if (ifNoneMatch !== undefined && tagMatches(ifNoneMatch, record.version)) {
          res.status(304).end();
          return;
        }
        sendJson(res, recordToJson(resource, record));
      },
      update: async (req, res) => {
        const key = keyParam(resource, req.params.key);
        const ifMatch = tagCondition('If-Match', req.headers['if-match']);
        const updated = await writes.update(key, req.body, ifMatch, userMetadata(req, res));
        res.setHeader('ETag', entityTagOf(updated.version));
        sendJson(res, recordToJson(resource, updated));
      },
      delete: async (req, res) => {
        const ifMatch = tagCondition('If-Match', req.headers['if-match']);
        await writes.delete(keyParam(resource, req.params.key), ifMatch, userMetadata(req, res));
        res.status(204).end();
      },
      bulk,
    });
  });
}
