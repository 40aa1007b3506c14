import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, lstat, mkdir, open, opendir, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkedStoredName, STORED_NAME, type FileStorage, type RemovedEntry, type StagedUpload, type StoredEntry } from './storage.ts';
import { writeFileRange } from './write-file-range.ts';

const TEMPORARY_NAME = /^\.upload-[0-9a-f-]{36}\.part$/;
/** Bytes per read of a staged upload (the virus scan's INSTREAM chunks). */
const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * DMS_STORAGE=local: the bytes in DMS_STORAGE_DIR, one file per dms-file named by its generated
 * storedFileName. An upload is written under a temporary name in the same directory (so that the
 * final rename is atomic) and renamed only when its row commits; its bytes and then its name are
 * flushed to the disk before the commit (`flush`, the directory's fsync in `commit`), so that a
 * committed row's file survives a crash of the machine as the row does.
 */
export class LocalFileStorage implements FileStorage {
  readonly kind = 'local';
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  async prepare(): Promise<void> {
    // the owner's alone, as every file in it (libs/kit/src/runtime/private-files.ts)
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
  }

  stage(): StagedUpload {
    return this.#staged(join(this.dir, `.upload-${randomUUID()}.part`));
  }

  adopt(path: string): StagedUpload {
    return this.#staged(path);
  }

  /** The path of a stored name; a name that is not one this class generates is refused. */
  pathOf(storedFileName: string): string {
    return join(this.dir, checkedStoredName(storedFileName));
  }

  async sizeOf(storedFileName: string): Promise<number> {
    return (await stat(this.pathOf(storedFileName))).size;
  }

  writeRange(res: ServerResponse, storedFileName: string, start: number, end: number): Promise<void> {
    return writeFileRange(res, this.pathOf(storedFileName), start, end);
  }

  copyTo(storedFileName: string, path: string): Promise<void> {
    return copyFile(this.pathOf(storedFileName), path);
  }

  async remove(storedFileName: string): Promise<void> {
    try {
      await unlink(this.pathOf(storedFileName));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }

  async *entries(): AsyncIterable<StoredEntry> {
    // opendir streams the directory: memory stays flat however many files it holds
    for await (const entry of await opendir(this.dir, { bufferSize: 256 })) {
      if (!entry.isFile()) continue;
      if (STORED_NAME.test(entry.name)) yield { name: entry.name, kind: 'stored' };
      else if (TEMPORARY_NAME.test(entry.name)) yield { name: entry.name, kind: 'temporary' };
    }
  }

  async removeIfOlder(entry: StoredEntry, cutoff: number): Promise<RemovedEntry | undefined> {
    const path = join(this.dir, entry.name);
    try {
      const info = await lstat(path);
      if (!info.isFile() || info.mtimeMs >= cutoff) return undefined;
      await unlink(path);
      return { bytes: info.size, modifiedAt: info.mtime };
    } catch (error) {
      // another replica's sweep, retention's purge or the upload itself removed it first
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  #staged(temporaryPath: string): StagedUpload {
    const storedFileName = randomUUID();
    const storedPath = this.pathOf(storedFileName);
    const dir = this.dir;
    return {
      storedFileName,
      write: (source: Readable) => pipeline(source, createWriteStream(temporaryPath, { flags: 'wx' })),
      read: () => createReadStream(temporaryPath, { highWaterMark: READ_CHUNK_BYTES }),
      // outside the transaction: a gigabyte's flush takes seconds
      flush: () => synced(temporaryPath, (handle) => handle.datasync()),
      async commit() {
        await rename(temporaryPath, storedPath);
        // the directory's entries on the disk: the rename
        await synced(dir, (handle) => handle.sync());
      },
      async discard() {
        await unlink(temporaryPath).catch(() => undefined);
        await unlink(storedPath).catch(() => undefined);
      },
    };
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
