import { randomUUID } from 'node:crypto';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

const STORED_NAME = /^[0-9a-f-]{36}$/;
const TEMPORARY_NAME = /^\.upload-[0-9a-f-]{36}\.part$/;

/**
 * Where file bytes live: DMS_STORAGE_DIR, one file per dms-file named by its generated
 * storedFileName (never the client's name). An upload is written under a temporary name in the same
 * directory (so that the final rename is atomic) and renamed only when its row commits; its bytes
 * and then its name are flushed to the disk before the commit (`flush`, `flushNames`), so that a
 * committed row's file survives a crash of the machine as the row does.
 */
export class FileStorage {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  async prepare(): Promise<void> {
    // the owner's alone, as every file in it (libs/kit/src/runtime/private-files.ts)
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
  }

  /** Waits until a written file's bytes are on the disk (fdatasync). */
  flush(path: string): Promise<void> {
    return synced(path, (handle) => handle.datasync());
  }

  /** Waits until the directory's entries are on the disk (fsync of the directory): a rename, say. */
  flushNames(): Promise<void> {
    return synced(this.dir, (handle) => handle.sync());
  }

  /** A fresh temporary path for an upload in progress. */
  temporaryPath(): string {
    return join(this.dir, `.upload-${randomUUID()}.part`);
  }

  /** A fresh stored name. */
  newStoredName(): string {
    return randomUUID();
  }

  /** The path of a stored name; a name that is not one this class generates is refused. */
  pathOf(storedFileName: string): string {
    if (!STORED_NAME.test(storedFileName)) throw new Error(`not a stored file name: ${storedFileName.slice(0, 80)}`);
    return join(this.dir, storedFileName);
  }

  /** What a name in the directory is: a stored file's, an upload's temporary, or neither (not this class's: left alone). */
  kindOf(name: string): 'stored' | 'temporary' | undefined {
    if (STORED_NAME.test(name)) return 'stored';
    return TEMPORARY_NAME.test(name) ? 'temporary' : undefined;
  }
}

/** Opens `path` for reading, runs `sync` on it, and closes it whatever happens. */
async function synced(path: string, sync: (handle: FileHandle) => Promise<void>): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await sync(handle);
  } finally {
    await handle.close();
  }
}
