import { Router, type Request, type RequestHandler, type Response } from 'express';
import { DomainError, unauthenticated } from '@platform/libs/errors/domain-error.ts';
import { keyOf, methodNames, offers, recordFieldOf, type Resource } from '@platform/libs/crud/resource.ts';
import type { PageMeta } from '@platform/libs/gen/platform/common/v1/common.ts';
import { toMetadata } from '@platform/libs/grpc/metadata.ts';
import type { Metadata } from '@grpc/grpc-js';
import type { Backends } from '../backends.ts';
import { languageOf, stateOf } from '../http/context.ts';
import { pageRequestFromJson, recordFromJson, recordToJson, type JsonObject } from '../http/record-json.ts';

type Message = Record<string, unknown>;

/** The metadata of a call made for the request's user: its token, language and client details. */
export function userMetadata(req: Request, res: Response): Metadata {
  const token = stateOf(res).token;
  if (!token) throw unauthenticated();
  return toMetadata({
    token,
    lang: languageOf(req, res),
    projectCode: header(req, 'x-project-code'),
    httpPath: req.originalUrl.slice(0, 1000),
    httpMethod: req.method,
  });
}

export function header(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value.slice(0, 1000) : undefined;
}

/** A path id: a positive whole number, else 400 SVC-SYS-2001. */
export function idParam(raw: string | undefined, name = 'id'): number {
  const id = raw !== undefined && /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw new DomainError('SVC-SYS-2001', 'param.invalid', { param: name });
  return id;
}

function keyParam(resource: Resource, raw: string | undefined): Message {
  const key = keyOf(resource);
  if (key === 'id') return { id: idParam(raw) };
  if (raw === undefined || raw === '' || raw.length > 255) throw new DomainError('SVC-SYS-2001', 'param.invalid', { param: key });
  return { [key]: raw };
}

/** Serialises a page of records as the interface's PageResponse. */
export function pageToJson(resource: Resource, content: Message[], meta: PageMeta | undefined): JsonObject {
  return {
    content: content.map((record) => recordToJson(resource, record)),
    page: meta?.page ?? 0,
    size: meta?.size ?? 0,
    totalElements: meta?.totalElements ?? 0,
    totalPages: meta?.totalPages ?? 0,
    first: meta?.first ?? true,
    last: meta?.last ?? true,
    empty: meta?.empty ?? true,
  };
}

/**
 * The REST routes of every resource's CRUD set (platform-interface.md §4.1), each translated to
 * its RPC: GET /{path}/stats, POST /{path}/list, GET|PUT|DELETE /{path}/{key}, POST /{path}.
 *
 * Each resource has a router of its own, and a request goes straight to the one its path names
 * (`/api/{path}…`): express then matches its few routes, not every route of every resource in
 * turn. The routes keep their full paths (the routers are called, not mounted), so `req.path` and
 * the errors that quote it are unchanged.
 */
export function crudRoutes(resources: readonly Resource[], backends: Backends): RequestHandler {
  const routers = new Map<string, Router>();
  for (const resource of resources) {
    const router = Router({ caseSensitive: true });
    routers.set(resource.path, router);
    const base = `/api/${resource.path}`;
    const names = methodNames(resource);
    const call = <Res>(method: string, request: unknown, req: Request, res: Response) =>
      backends.call<Res>(resource.service, resource.grpc, method, request, userMetadata(req, res));

    if (offers(resource, 'stats')) {
      router.get(`${base}/stats`, async (req, res) => {
        const raw = req.query.crProcessId;
        const request = raw === undefined ? {} : { crProcessId: idParam(typeof raw === 'string' ? raw : undefined, 'crProcessId') };
        res.json(await call(names.stats, request, req, res));
      });
    } else {
      // a resource without statistics has no such path (rather than 400 for a record key "stats")
      router.get(`${base}/stats`, (req) => {
        throw new DomainError('SVC-SYS-4001', 'path.notFound', { path: req.path.slice(0, 200) });
      });
    }
    if (offers(resource, 'list')) {
      router.post(`${base}/list`, async (req, res) => {
        const page = pageRequestFromJson(req.body);
        const response = await call<{ content: Message[]; meta?: PageMeta }>(names.list, { page }, req, res);
        res.json(pageToJson(resource, response.content, response.meta));
      });
    }
    if (offers(resource, 'create')) {
      router.post(base, async (req, res) => {
        const { record } = recordFromJson(resource, req.body, 'create');
        const created = await call<Message>(names.create, { [recordFieldOf(resource)]: record }, req, res);
        res.json(recordToJson(resource, created));
      });
    }
    router.get(`${base}/:key`, async (req, res) => {
      const record = await call<Message>(names.get, keyParam(resource, req.params.key), req, res);
      res.json(recordToJson(resource, record));
    });
    if (offers(resource, 'update')) {
      router.put(`${base}/:key`, async (req, res) => {
        const key = keyParam(resource, req.params.key);
        const { record, mask } = recordFromJson(resource, req.body, 'update');
        if (record.version === undefined) throw new DomainError('SVC-SYS-2001', 'version.required', { field: 'version' });
        const updated = await call<Message>(names.update, { ...key, [recordFieldOf(resource)]: record, updateMask: mask }, req, res);
        res.json(recordToJson(resource, updated));
      });
    }
    if (offers(resource, 'delete')) {
      router.delete(`${base}/:key`, async (req, res) => {
        await call(names.delete, keyParam(resource, req.params.key), req, res);
        res.status(204).end();
      });
    }
  }
  return (req, res, next) => {
    const router = routers.get(RESOURCE_SEGMENT.exec(req.path)?.[1] ?? '');
    if (router) router(req, res, next);
    else next();
  };
}

/**
 * The resource path of `/api/{path}`, `/api/{path}/…`. Paths are case-sensitive everywhere, as the
 * filter chain's categories are (middleware/paths.ts): `/API/session/active` must not reach a
 * route that `/api/session/active` reaches only with the API key.
 */
const RESOURCE_SEGMENT = /^\/api\/([^/]+)/;
