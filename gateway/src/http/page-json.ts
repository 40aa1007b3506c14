import type { PageMeta } from '@platform/kit/gen/platform/common/v1/common.ts';

/**
 * The interface's PageResponse (docs/interface.md#lists): the page's items, already as JSON, and
 * its arithmetic; a service that sent no meta answered an empty first page.
 *
 * @example
 * res.json(pageJson(response.content.map(sessionJson), response.meta));
 */
export function pageJson<T>(content: T[], meta: PageMeta | undefined) {
  return {
    content,
    page: meta?.page ?? 0,
    size: meta?.size ?? 0,
    totalElements: meta?.totalElements ?? 0,
    totalPages: meta?.totalPages ?? 0,
    first: meta?.first ?? true,
    last: meta?.last ?? true,
    empty: meta?.empty ?? true,
  };
}
