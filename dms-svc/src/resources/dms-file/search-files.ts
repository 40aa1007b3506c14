import type { FilterQuery } from '@mikro-orm/postgresql';
import type { Row } from '@platform/service-kit/db/entity-schema.ts';
import { assertTenant, tenantScope, type CallContext } from '@platform/service-kit/auth/caller.ts';
import { toMessages } from '@platform/service-kit/crud/handlers.ts';
import { liveOnly } from '@platform/service-kit/crud/key-read.ts';
import type { ResourceRuntime } from '@platform/service-kit/crud/runtime.ts';
import { searchCondition } from '@platform/service-kit/crud/search-term.ts';
import type { DmsFile, SearchDmsFilesRequest } from '@platform/kit/gen/platform/dms/v1/dms_file.ts';
import { toRowValue } from '@platform/kit/resource/values.ts';
import { dmsFile } from '@platform/contracts/dms/dms-file.ts';
import { unreadableCategoryIds } from '../../access/readable-categories.ts';
import { filterCondition, searchFilters } from '../../text/search-filters.ts';
import { searchText } from '../../text/search-text.ts';

/** Most files a search answers (an array, not a page: docs/interface.md#files). */
export const SEARCH_LIMIT = 500;
/** What a match of the name, description or tags adds to a file's rank: above any match of the text alone (ts_rank stays below 1). */
const NAME_RANK = 1;

/**
 * SearchDmsFiles (docs/interface.md#files): a tenant's live files that the caller may read
 * (docs/adr/0160-a-category-s-read-role.md), narrowed by the filters. Without a term, every such
 * file by id. With one, the files whose name, description or tags hold it (as before) and those
 * whose text matches it (text/search-text.ts), best first: a name's match ranks above the text's alone;
 * each carries `searchRank`, and a text's match its `searchSnippet`.
 */
export async function searchFiles(rt: ResourceRuntime, request: SearchDmsFilesRequest, ctx: CallContext): Promise<{ files: DmsFile[] }> {
  const crProcessId = toRowValue('crProcessId', { kind: 'long', min: 1 }, request.crProcessId) as number;
  assertTenant(ctx, crProcessId);
  const term = request.searchTerm === undefined ? '' : (toRowValue('searchTerm', { kind: 'text', maxLength: 255 }, request.searchTerm) as string);
  const filters = searchFilters(request);
  if (tenantScope(ctx) !== undefined) filters.unreadableCategories = await unreadableCategoryIds(ctx.em, ctx, crProcessId);
  const conditions: FilterQuery<Row>[] = [{ crProcessId, ...liveOnly(dmsFile) }, filterCondition(filters)];
  if (term !== '') conditions.push(searchCondition(['originalFileName', 'description', 'tags'], term));
  const named = await ctx.em.find(rt.entity, { $and: conditions }, { orderBy: { id: 'asc' }, limit: SEARCH_LIMIT });
  if (term.trim() === '') return { files: await toMessages(rt, named, ctx) };
  const hits = await searchText(ctx.em, crProcessId, term, filters, SEARCH_LIMIT);
  const byText = new Map(hits.map((hit) => [hit.fileId, hit]));
  const namedIds = new Set(named.map((row) => Number(row.id)));
  const ranked = [
    ...named.map((row) => ({ id: Number(row.id), rank: NAME_RANK + (byText.get(Number(row.id))?.rank ?? 0) })),
    ...hits.filter((hit) => !namedIds.has(hit.fileId)).map((hit) => ({ id: hit.fileId, rank: hit.rank })),
  ]
    .sort((a, b) => b.rank - a.rank || a.id - b.id)
    .slice(0, SEARCH_LIMIT);
  const rows = new Map(
    (await ctx.em.find(rt.entity, { id: { $in: ranked.map((hit) => hit.id) }, ...liveOnly(dmsFile) })).map((row) => [Number(row.id), row] as const),
  );
  const kept = ranked.filter((hit) => rows.has(hit.id));
  const messages = await toMessages(
    rt,
    kept.map((hit) => rows.get(hit.id)!),
    ctx,
  );
  messages.forEach((message, i) => {
    const hit = kept[i]!;
    message.searchRank = hit.rank.toFixed(6);
    const snippet = byText.get(hit.id)?.snippet;
    if (snippet) message.searchSnippet = snippet;
  });
  return { files: messages };
}
