/**
 * Where a new embedded cluster is made. Its data folder stays where it was asked for (`.data/pg`)
 * when the server's user can reach it; as root, when `postgres` cannot enter a folder above it (a
 * checkout under root's 0700 home), the cluster lives under RELOCATED_ROOT instead and the asked-for
 * path becomes a symbolic link to it, so `.data/pg` still names the cluster and deleting `.data`
 * still starts over.
 */
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { canReach, type PostgresAccount } from './postgres-account.ts';

/** Root-owned and 0711: `postgres` may enter it, nobody else may list or write it; kept across reboots. */
export const RELOCATED_ROOT = '/var/lib/platform-embedded-pg';

export interface ClusterHome {
  /** Where initdb makes the cluster. */
  clusterDir: string;
  /** Whether `clusterDir` is elsewhere and the asked-for path must become a link to it. */
  relocated: boolean;
}

/**
 * Prepares the parent of the cluster. The asked-for folder's parent is made, and, as root, opened to
 * others for traversal only (a umask of 077 would hide it from `postgres`); if `postgres` still cannot
 * reach it, RELOCATED_ROOT/<sha-256 of the asked-for path, 16 hex>/data is used, emptied first (a
 * cluster there belongs to a `.data/pg` that was deleted: its password went with it).
 */
export function clusterHome(dataDir: string, account: PostgresAccount | undefined): ClusterHome {
  const parent = dirname(dataDir);
  mkdirSync(parent, { recursive: true });
  if (!account) return { clusterDir: dataDir, relocated: false };
  const mode = lstatSync(parent).mode & 0o7777;
  if ((mode & 0o001) === 0) chmodSync(parent, mode | 0o001);
  if (canReach(parent, account)) return { clusterDir: dataDir, relocated: false };

  ownedFolder(RELOCATED_ROOT);
  const home = join(RELOCATED_ROOT, createHash('sha256').update(dataDir).digest('hex').slice(0, 16));
  ownedFolder(home);
  const clusterDir = join(home, 'data');
  rmSync(clusterDir, { recursive: true, force: true });
  rmSync(`${clusterDir}.initialising`, { recursive: true, force: true });
  return { clusterDir, relocated: true };
}

/**
 * A folder root made (or made earlier) with mode 0711. A path someone else put there first (not a
 * folder, another owner, writable by others) is refused rather than used: root writes into it.
 */
function ownedFolder(path: string): void {
  try {
    mkdirSync(path, { mode: 0o711 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stat = lstatSync(path);
  if (!stat.isDirectory() || stat.uid !== 0 || (stat.mode & 0o022) !== 0) {
    throw new Error(`${path} is not a folder of root's that only root may write; remove it and start again`);
  }
  chmodSync(path, 0o711);
}
