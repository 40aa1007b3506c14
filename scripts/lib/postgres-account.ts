/**
 * PostgreSQL refuses to run as root, so as root the embedded server runs as the system user
 * `postgres`: its ids (the user is made when missing) and whether it can reach a path.
 */
import { execFileSync, spawnSync } from 'node:child_process';

export interface PostgresAccount {
  uid: number;
  gid: number;
}

const USER = 'postgres';

/** The `postgres` user's ids, after making it (a system user with its own group, no home) if missing. */
export function postgresAccount(): PostgresAccount {
  const existing = lookup();
  if (existing) return existing;
  try {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', USER], { stdio: 'pipe' });
  } catch (error) {
    const detail = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim();
    // eslint-disable-next-line preserve-caught-error -- the message carries useradd's own words
    throw new Error(
      `as root the embedded PostgreSQL runs as the user ${USER}, which is missing and could not be made (${detail}); create it: useradd --system --user-group ${USER}`,
    );
  }
  const made = lookup();
  if (!made) throw new Error(`the user ${USER} was made but cannot be looked up`);
  return made;
}

/**
 * Whether `postgres` can reach `path`: enter every folder above it and, with `execute`, run it (a
 * folder: enter it). Asked of the system itself (`test -x` run as that user), so ACLs and groups
 * count as the server will meet them.
 */
export function canReach(path: string, account: PostgresAccount): boolean {
  const probe = spawnSync('test', ['-x', path], { uid: account.uid, gid: account.gid, stdio: 'ignore' });
  return probe.status === 0;
}

function lookup(): PostgresAccount | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    const gid = Number(execFileSync('id', ['-g', USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : undefined;
  } catch {
    return undefined;
  }
}
