import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Where file bytes live: DMS_STORAGE_DIR, one file per dms-file named by its generated
 * storedFileName (never the client's name). An upload is written under a temporary name in the same
 * directory (so that the final rename is atomic) and renamed only when its row commits.
 */
export class FileStorage {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  async prepare(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
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
    if (!/^[0-9a-f-]{36}$/.test(storedFileName)) throw new Error(`not a stored file name: ${storedFileName.slice(0, 80)}`);
    return join(this.dir, storedFileName);
  }
}
