import { SEARCH_HITS_PER_KIND, SEARCH_KINDS, SEARCH_MAX_TERM, SEARCH_OPERATIONS, SEARCH_SERVICES } from '@platform/contracts/search.ts';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import { ERRORS } from '@platform/kit/errors/codes.ts';
import { fromGrpcError } from '@platform/kit/errors/grpc-status.ts';
import { SearchServiceService, type SearchGroup, type SearchResponse } from '@platform/kit/gen/platform/common/v1/search.ts';
import type { ServiceName } from '@platform/kit/resource/resource.ts';
import type { Backends } from '../backends.ts';
import { sendJson } from '../http/json-answer.ts';
import { userMetadata } from './crud.ts';
import { routerFor, type RouteGroup } from './route.ts';

/** The route of the global search, as declared (libs/contracts/src/search.ts). */
export const SEARCH_ROUTES = SEARCH_OPERATIONS;

/**
 * How long the search waits for each service: one that has not answered by then leaves its kinds
 * out of a partial answer (docs/adr/0116-global-search-fans-out.md). Far above a search's own
 * time (a few ms per kind over a million partners), far below what a user waits for a box.
 */
export const SEARCH_BUDGET_MS = 1500;

const ORDER = new Map(SEARCH_KINDS.map((kind, i) => [kind.resource.path, i]));

/** The term, trimmed: 1 to SEARCH_MAX_TERM characters, else 400 SVC-SYS-2001 naming q. */
function termOf(q: string | undefined): string {
  const term = q?.trim() ?? '';
  if (term === '' || term.length > SEARCH_MAX_TERM) throw new DomainError('SVC-SYS-2001', 'param.invalid', { param: 'q' });
  return term;
}

/**
 * GET /api/search?q=&crProcessId= : every service that owns a searched kind is asked at once with
 * the caller's token (each checks the tenant and the read roles itself) under SEARCH_BUDGET_MS. A
 * refusal (a tenant not held) is the answer; a service unavailable or late leaves its kinds in
 * `unanswered` and the answer `partial`; all of them so is 503 SVC-SYS-5002.
 */
export function searchRoutes(backends: Backends, budgetMs = SEARCH_BUDGET_MS): RouteGroup {
  return routerFor(SEARCH_ROUTES, {
    search: async (req, res, query) => {
      const request = { term: termOf(query.q), crProcessId: query.crProcessId, limit: SEARCH_HITS_PER_KIND };
      const metadata = userMetadata(req, res);
      const answers = await Promise.allSettled(
        SEARCH_SERVICES.map((service) => backends.call(service, SearchServiceService.search, request, metadata.clone(), undefined, budgetMs)),
      );
      const groups: SearchGroup[] = [];
      const unanswered: ServiceName[] = [];
      let failure: unknown;
      answers.forEach((answer, i) => {
        if (answer.status === 'fulfilled') groups.push(...(answer.value as SearchResponse).groups);
        else if (ERRORS[domainOf(answer.reason).code].http < 500) throw answer.reason;
        else {
          failure ??= answer.reason;
          unanswered.push(SEARCH_SERVICES[i] as ServiceName);
        }
      });
      if (unanswered.length === SEARCH_SERVICES.length) throw failure;
      if (unanswered.length > 0) req.log.warn({ unanswered, err: failure }, 'search answered in part');
      groups.sort((a, b) => (ORDER.get(a.entity) ?? 0) - (ORDER.get(b.entity) ?? 0));
      sendJson(res, {
        groups: groups.map((group) => ({
          entity: group.entity,
          hits: group.hits.map((hit) => ({ id: hit.id, code: hit.code ?? null, name: hit.name })),
          more: group.more,
        })),
        partial: unanswered.length > 0,
        unanswered: SEARCH_KINDS.filter((kind) => unanswered.includes(kind.resource.service)).map((kind) => kind.resource.path),
      });
    },
  });
}

function domainOf(error: unknown): DomainError {
  return error instanceof DomainError ? error : fromGrpcError(error as Error);
}
