/**
 * The check of an XLSX (a zip) before anything reads its cells: its central directory says how
 * large each entry inflates to, and a file whose entries together inflate past
 * IMPORT_MAX_INFLATED_BYTES, or one entry over 1 MiB past IMPORT_MAX_RATIO times its compressed
 * size, is refused (400 SVC-SYS-2001 `import.zipBomb`) without inflating any. An entry that lies
 * about its size is caught while inflating: yauzl refuses more bytes than the directory declared.
 */
import yauzl from 'yauzl';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import type { ImportLimits } from '@platform/kit/config/import-limits.ts';

const MIB = 1024 * 1024;

function bomb(): DomainError {
  return new DomainError('SVC-SYS-2001', 'import.zipBomb');
}

function unreadable(): DomainError {
  return new DomainError('SVC-SYS-2001', 'import.notReadable');
}

/** Refuses a zip bomb; then inflates every entry, refusing one that inflates past what it declared. */
export async function guardZip(bytes: Buffer, limits: ImportLimits): Promise<void> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true }, (error, file) => (error ? reject(unreadable()) : resolve(file))),
  );
  const entries: yauzl.Entry[] = [];
  let total = 0;
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      total += entry.uncompressedSize;
      const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
      if (total > limits.maxInflatedBytes || (entry.uncompressedSize > MIB && ratio > limits.maxRatio)) {
        zip.close();
        reject(bomb());
        return;
      }
      entries.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve());
    zip.on('error', () => reject(unreadable()));
    zip.readEntry();
  });
  // the declared sizes are what the entries hold: yauzl counts each one's bytes as it inflates
  for (const entry of entries) {
    if (entry.fileName.endsWith('/')) continue;
    await new Promise<void>((resolve, reject) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(unreadable());
        stream.on('error', () => reject(bomb()));
        stream.on('end', () => resolve());
        stream.resume();
      });
    });
  }
  zip.close();
}
