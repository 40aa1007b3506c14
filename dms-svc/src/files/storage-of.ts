import type { DmsConfig } from '../config.ts';
import { LocalFileStorage } from './local-storage.ts';
import { S3FileStorage } from './s3-storage.ts';
import type { FileStorage } from './storage.ts';

/** The file storage DMS_STORAGE names: the folder DMS_STORAGE_DIR (local, the default) or an S3-compatible bucket (s3). */
export function storageOf(config: DmsConfig): FileStorage {
  const settings = config.dms.storage;
  return settings.kind === 's3' ? new S3FileStorage(settings, config.dms.storageDir) : new LocalFileStorage(config.dms.storageDir);
}
