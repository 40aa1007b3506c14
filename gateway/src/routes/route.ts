import { Router, type Request, type RequestHandler, type Response } from 'express';
import { readQuery, type QuerySpec, type QueryValues } from '../http/query.ts';
import { chain } from '../http/chain.ts';

export type Method = 'get' | 'post' | 'put' | 'delete' | 'patch' | 'head' | 'options';

/**
 * One REST route: its method, its express path, and the query parameters it reads. A route that
 * declares `query` refuses any other parameter (http/query.ts); one that declares none reads no
 * query and ignores it.
 */
export interface RouteSpec {
  readonly method: Method;
  readonly path: string;
  readonly query?: QuerySpec;
  /**
   * Held only so that the path answers 404 SVC-SYS-4001 instead of matching a route after it (a
   * resource without statistics: `stats` is not a record key). Not an operation: the API document
   * leaves it out.
   */
  readonly notFoundOnly?: true;
}

/** A table of routes by name, in the order they are matched. */
export type RouteTable = Readonly<Record<string, RouteSpec>>;

type QueryOf<R extends RouteSpec> = R['query'] extends QuerySpec ? QueryValues<R['query']> : Record<string, never>;

/** Path parameters: `:name` segments, strings. */
export type PathParams = Record<string, string>;

/** A route's handler: it gets the query already read by the route's declaration. */
export type RouteHandler<R extends RouteSpec> = (req: Request<PathParams>, res: Response, query: QueryOf<R>) => unknown;

/**
 * A router serving every route of `table`, in the table's order, each with its handler. The table
 * is the one list of a module's routes: the router is built from it and the fuzz test walks it,
 * so neither can miss a route.
 *
 * @example
 * export const BPM_ROUTES = { byPartner: { method: 'get', path: '/api/branch/by-partner/:id' } } as const satisfies RouteTable;
 * routerFor(BPM_ROUTES, { byPartner: async (req, res) => { ... } });
 */
export function routerFor<T extends { readonly [name: string]: RouteSpec | undefined }>(
  table: T,
  handlers: { [K in keyof T]-?: RouteHandler<NonNullable<T[K]>> },
): RouteGroup {
  const router = Router({ caseSensitive: true });
  const prefixes = new Set<string>();
  for (const name of Object.keys(table) as (keyof T & string)[]) {
    const spec = table[name];
    if (!spec) continue;
    prefixes.add(routePrefix(spec.path));
    const handler = handlers[name] as (req: Request<PathParams>, res: Response, query: object) => unknown;
    router.route(spec.path)[spec.method]((req: Request<PathParams>, res: Response) => handler(req, res, spec.query ? readQuery(req, spec.query) : {}));
  }
  return { router, prefixes };
}

/** A router built from a route table, and the path prefixes (`pathPrefix`) of its routes. */
export interface RouteGroup {
  readonly router: Router;
  readonly prefixes: ReadonlySet<string>;
}

/** The first two segments of a path: `/api/branch` of `/api/branch/7/x`, `/metrics` of `/metrics`. */
const PREFIX = /^\/[^/]*(?:\/[^/]*)?/;

function pathPrefix(path: string): string {
  return PREFIX.exec(path)?.[0] ?? '';
}

/** A route path's prefix; a parameter there would make the prefix match nothing, so it is refused. */
function routePrefix(path: string): string {
  const prefix = pathPrefix(path);
  if (prefix.includes(':') || prefix.includes('*')) throw new Error(`route ${path}: a parameter in the first two segments cannot be dispatched by prefix`);
  return prefix;
}

/**
 * One handler for many route groups: a request goes straight to the groups whose routes share its
 * path's first two segments (`/api/branch`), in the order given, and to `next` when none answers.
 * Express would otherwise try every router in turn, matching each of their routes against the path:
 * with about forty resources that was a fifth of what the gateway allocates per request. The routes
 * keep their full paths (the routers are called, not mounted), so `req.path`, `req.route` and the
 * errors that quote them are unchanged.
 *
 * @example
 * app.use(dispatchByPrefix([authRoutes(…), bpmRoutes(…), ...crudRoutes(registry, backends)]));
 */
export function dispatchByPrefix(groups: readonly RouteGroup[]): RequestHandler {
  const routers = new Map<string, Router[]>();
  for (const { router, prefixes } of groups) for (const prefix of prefixes) routers.set(prefix, [...(routers.get(prefix) ?? []), router]);
  // the routers of one prefix run in turn, as the filter chain's handlers do
  const byPrefix = new Map([...routers].map(([prefix, list]) => [prefix, list.length === 1 && list[0] ? list[0] : chain(list)] as const));
  return (req, res, next) => {
    const handler = byPrefix.get(pathPrefix(req.path));
    if (!handler) return next();
    handler(req, res, next);
  };
}

/** The routes of tables, as a flat list in order. */
export function routesOf(...tables: readonly { readonly [name: string]: RouteSpec | undefined }[]): RouteSpec[] {
  return tables.flatMap((table) => Object.values(table).filter((spec): spec is RouteSpec => spec !== undefined));
}
