/**
 * An offset page as the console asks for them: a list answers its index and counts on every page
 * but a cursor page (docs/adr/0154-cursor-paging-over-the-sort.md), which the console never asks
 * for, so their absence is a broken answer, not a case to show.
 *
 * @example
 * const page = offsetPage(await answer(platform.POST('/api/{resource}/list', { ... })));
 * page.totalElements // number
 */
export function offsetPage<P extends { page?: number; totalElements?: number; totalPages?: number }>(
  page: P,
): P & { page: number; totalElements: number; totalPages: number } {
  const { page: index, totalElements, totalPages } = page;
  if (index === undefined || totalElements === undefined || totalPages === undefined) throw new Error('an offset list answered without its page arithmetic');
  return { ...page, page: index, totalElements, totalPages };
}
