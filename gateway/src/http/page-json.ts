import type { PageMeta } from '@platform/kit/gen/platform/common/v1/common.ts';

/**
 * The interface's PageResponse (docs/interface.md#lists): the page's items, already as JSON, and
 * its arithmetic; a service that sent no meta answered an empty first page. A cursor page has no
 * index and no count (`page`, `totalElements` and `totalPages` absent) and names the next page's
 * `after` unless it is the last (docs/adr/0154-cursor-paging-over-the-sort.md).
 *
 * @example
 * res.json(pageJson(response.content.map(sessionJson), response.meta));
 */
export function pageJson<T>(content: T[], meta: PageMeta | undefined) {
  if (!meta) return { content, page: 0, size: 0, totalElements: 0, totalPages: 0, first: true, last: true, empty: true };
  return {
    content,
    ...(meta.page !== undefined && { page: meta.page }),
    size: meta.size,
    ...(meta.totalElements !== undefined && { totalElements: meta.totalElements }),
    ...(meta.totalPages !== undefined && { totalPages: meta.totalPages }),
    first: meta.first,
    last: meta.last,
    empty: meta.empty,
    ...(meta.nextAfter !== undefined && { nextAfter: meta.nextAfter }),
  };
}
