import { Router, type Request, type Response } from 'express';
import { readQuery, type QuerySpec, type QueryValues } from '../http/query.ts';

export type Method = 'get' | 'post' | 'put' | 'delete';

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
): Router {
  const router = Router({ caseSensitive: true });
  for (const name of Object.keys(table) as (keyof T & string)[]) {
    const spec = table[name];
    if (!spec) continue;
    const handler = handlers[name] as (req: Request<PathParams>, res: Response, query: object) => unknown;
    router.route(spec.path)[spec.method]((req: Request<PathParams>, res: Response) => handler(req, res, spec.query ? readQuery(req, spec.query) : {}));
  }
  return router;
}

/** The routes of tables, as a flat list in order. */
export function routesOf(...tables: readonly { readonly [name: string]: RouteSpec | undefined }[]): RouteSpec[] {
  return tables.flatMap((table) => Object.values(table).filter((spec): spec is RouteSpec => spec !== undefined));
}
