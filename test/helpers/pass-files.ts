/**
 * Which files of a list a pass of test/run.ts runs: the `[s3]` pass (helpers/file-stores.ts) and
 * the `[pgbouncer]` pass (helpers/pgbouncer.ts) each run a list of the suite's files again on a
 * platform of their own.
 */
import { matchesGlob, relative, resolve } from 'node:path';

/**
 * Of a run's ava arguments, those of a pass of `list`: the flags, and the files of `list` the run
 * selects (by path or glob, from `rootDir`), all of them when it selects none. Empty when it selects
 * files and none of them is in `list`.
 */
export function selectedOf(list: readonly string[], avaArgs: readonly string[], rootDir: string): string[] {
  const flags = avaArgs.filter((arg) => arg.startsWith('-'));
  const patterns = avaArgs.filter((arg) => !arg.startsWith('-')).map((arg) => relative(rootDir, resolve(rootDir, arg)));
  const selected = patterns.length === 0 ? list : list.filter((file) => patterns.some((pattern) => matchesGlob(file, pattern)));
  return selected.length === 0 ? [] : [...flags, ...selected];
}
