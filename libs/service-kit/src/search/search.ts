/**
 * The global search of one service (docs/adr/0116-global-search-fans-out.md): SearchService over
 * the service's own kinds, within one tenant, each kind only for a caller who may read it now.
 */
import type { Server } from '@grpc/grpc-js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError, forbidden } from '@platform/kit/errors/domain-error.ts';
import {
  SearchServiceService,
  type SearchGroup,
  type SearchHit,
  type SearchRequest,
  type SearchResponse,
} from '@platform/kit/gen/platform/common/v1/search.ts';
import { tableOf } from '@platform/kit/resource/resource.ts';
import type { SearchKind } from '@platform/kit/resource/search-kind.ts';
import { allows, tenantScope, type CallContext } from '../auth/caller.ts';
import { snake } from '../db/row.ts';
import { implement, type Handler, type Runtime } from '../grpc/server.ts';
import { searchPattern } from '../crud/search-term.ts';
import { foldedColumn, prefixPattern } from '../db/prefix-index.ts';
import type { ReadLimit, ReadLimits } from '../crud/read-limit.ts';

/** The longest term, in characters; a longer one is 400 SVC-SYS-2001. */
export const MAX_TERM = 100;
/** Hits per kind when the request names no limit, and the most it may name. */
const DEFAULT_LIMIT = 5;
const MAX_LIMIT = 20;
/** From this many characters a name is matched by containment (pg_trgm reads trigrams); below it, by prefix. */
export const CONTAINMENT_FROM = 3;
/** The longest name shown (a contract's description may be long). */
const NAME_CHARS = 200;

/**
 * Serves `platform.common.v1.SearchService` for `kinds` (the service's own) over the tables of
 * `schema`.
 *
 * @example
 * registerSearch(server, runtime, SEARCH_KINDS.filter((kind) => kind.resource.service === 'bpm'), 'bpm');
 */
export function registerSearch(server: Server, runtime: Runtime, kinds: readonly SearchKind[], schema: string, limits: ReadLimits = new Map()): void {
  server.addService(SearchServiceService, implement(runtime, { search: searchHandler(kinds, schema, limits) }));
}

/**
 * Search: the caller's access is read for the read role of every kind; a kind whose role the caller
 * does not hold is left out of the answer, not refused. Tenant as for a list: a user's current
 * tenant, another named is 403 SVC-SYS-1003 (a super user may name any). A kind with a read limit
 * (`limits`) finds only the rows the caller may read.
 */
export function searchHandler(kinds: readonly SearchKind[], schema: string, limits: ReadLimits = new Map()): Handler<SearchRequest, SearchResponse> {
  const handler = async (request: SearchRequest, ctx: CallContext): Promise<SearchResponse> => {
    const term = request.term.trim();
    if (term === '' || term.length > MAX_TERM) throw new DomainError('SVC-SYS-2001', 'param.invalid', { param: 'q' });
    const limit = request.limit ?? DEFAULT_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new DomainError('SVC-SYS-2001', 'param.invalid', { param: 'limit' });
    const tenant = searchTenant(ctx, request.crProcessId);
    const groups: SearchGroup[] = [];
    // one after the other: a few short statements on one pooled connection at a time
    for (const kind of kinds) {
      if (!allows(ctx, readRole(kind))) continue;
      const readLimit = await limits.get(kind.resource.path)?.(ctx);
      groups.push(await searchKind(ctx.em, schema, kind, term, tenant, limit, readLimit));
    }
    return { groups };
  };
  return Object.assign(handler, { roles: new Set(kinds.map(readRole)) as ReadonlySet<string> });
}

const readRole = (kind: SearchKind) => `${kind.resource.path}:read`;

/** The tenant searched: the one named, when the caller may name it, else the user's current tenant. */
function searchTenant(ctx: CallContext, named: number | undefined): number {
  const scope = tenantScope(ctx);
  if (named !== undefined) {
    if (scope !== undefined && scope !== named) throw forbidden();
    return named;
  }
  if (scope !== undefined) return scope;
  if (ctx.caller.kind === 'user') return ctx.caller.claims.crProcessId;
  throw new DomainError('SVC-SYS-2002', 'filter.crProcessIdRequired');
}

interface HitRow {
  id: string | number;
  code: string | null;
  prefixed: boolean;
  [name: string]: unknown;
}

/**
 * One kind's hits, in one statement of two limited parts: codes that start with the term, in code
 * order, then names that hold it (in no order, so that the first `limit + 1` found end the scan).
 */
async function searchKind(
  em: EntityManager,
  schema: string,
  kind: SearchKind,
  term: string,
  tenant: number,
  limit: number,
  readLimit: ReadLimit | undefined,
): Promise<SearchGroup> {
  const table = `"${schema}"."${tableOf(kind.resource)}"`;
  const live = (kind.resource.softDelete ? ` and not "${snake(kind.resource.softDelete)}"` : '') + (readLimit ? ` and ${readLimit.sql}` : '');
  const scoped = [tenant, ...(readLimit?.values ?? [])];
  const names = kind.name.map((field, i) => `"${snake(field)}" as n${i}`).join(', ');
  const code = kind.code ? `"${snake(kind.code)}"` : 'null';
  const select = `select id, ${code}::text as code, ${names}`;
  const parts: string[] = [];
  const params: unknown[] = [];
  if (kind.code) {
    parts.push(
      `(${select}, true as prefixed from ${table} where cr_process_id = ?${live} and ${foldedColumn(code)} like ? order by ${foldedColumn(code)} limit ?)`,
    );
    params.push(...scoped, prefixPattern(term), limit + 1);
  }
  const contains = term.length >= CONTAINMENT_FROM;
  const match = kind.name.map((field) => (contains ? `"${snake(field)}" ~* ?` : `${foldedColumn(`"${snake(field)}"`)} like ?`)).join(' or ');
  parts.push(`(${select}, false as prefixed from ${table} where cr_process_id = ?${live} and (${match}) limit ?)`);
  params.push(...scoped, ...kind.name.map(() => (contains ? searchPattern(term).source : prefixPattern(term))), limit + 1);
  const rows = await em.execute<HitRow[]>(parts.join(' union all '), params);
  return toGroup(kind, rows, limit);
}

/** The hits of a kind's rows: each record once, codes by prefix first, then names alphabetically. */
function toGroup(kind: SearchKind, rows: HitRow[], limit: number): SearchGroup {
  const seen = new Set<number>();
  const hits: (SearchHit & { prefixed: boolean })[] = [];
  for (const row of rows) {
    const id = Number(row.id);
    if (seen.has(id)) continue;
    seen.add(id);
    const name = kind.name
      .map((_, i) => row[`n${i}`])
      .filter((value): value is string => typeof value === 'string' && value !== '')
      .join(' ')
      .slice(0, NAME_CHARS);
    hits.push({ id, code: row.code ?? undefined, name, prefixed: row.prefixed });
  }
  hits.sort((a, b) => Number(b.prefixed) - Number(a.prefixed) || (a.prefixed ? 0 : a.name.localeCompare(b.name)) || a.id - b.id);
  return { entity: kind.resource.path, hits: hits.slice(0, limit).map(({ prefixed: _, ...hit }) => hit), more: hits.length > limit };
}
