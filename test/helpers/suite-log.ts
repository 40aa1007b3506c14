import type { LogTarget } from '../../scripts/lib/log-sink.ts';

/**
 * Where a test's own extra platform (a gateway with other limits, a replica) writes its output:
 * the suite's log (PLATFORM_LOG_FILE), so that the closing scan for secrets covers it too.
 */
export function suiteLog(): LogTarget {
  const file = process.env.PLATFORM_LOG_FILE;
  return file ? { file } : 'silent';
}
