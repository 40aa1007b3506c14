/**
 * Work the page can wait for (a list's reference names), at most `limit` at once: a browser opens
 * six connections to an origin, and a page of rows naming forty records must not take them all
 * while the user asks for the next page. Measured with bench/console-load.ts: forty reference reads
 * in flight delayed the next page's list request behind them.
 */
export function backgroundQueue(limit: number): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await work();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
