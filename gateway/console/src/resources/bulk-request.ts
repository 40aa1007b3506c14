/**
 * A bulk change of a resource's records (`POST /api/{resource}/bulk`, docs/interface.md#bulk-changes),
 * in requests of at most MAX_BULK_ITEMS items, and its results per item in the order sent.
 */
import { MAX_BULK_ITEMS } from '@platform/contracts/bulk.ts';
import { answer, platform } from '../shell/api.ts';
import type { BulkItem, BulkResult } from '../shell/console-paths.ts';

/**
 * Sends `items` in order, a request per MAX_BULK_ITEMS; each result's `index` is its item's place in
 * `items`. An item not run (after a 401 or 5xx) stops the rest: they are reported as not run too.
 *
 * @example
 * const results = await sendBulk('branch', [{ action: 'delete', key: 7 }]);
 */
export async function sendBulk(resource: string, items: readonly BulkItem[]): Promise<BulkResult[]> {
  const results: BulkResult[] = [];
  for (let start = 0; start < items.length; start += MAX_BULK_ITEMS) {
    const chunk = items.slice(start, start + MAX_BULK_ITEMS);
    if (results.some((result) => result.notRun)) {
      results.push(...chunk.map((_, index) => ({ index: start + index, notRun: true as const })));
      continue;
    }
    const answered = await answer(platform.POST('/api/{resource}/bulk', { params: { path: { resource } }, body: { items: chunk } }));
    results.push(...answered.results.map((result) => ({ ...result, index: start + result.index })));
  }
  return results;
}
