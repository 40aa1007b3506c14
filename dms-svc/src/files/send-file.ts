import type { IncomingMessage, ServerResponse } from 'node:http';
import { create as contentDisposition } from 'content-disposition';
import { rangeOf } from './byte-range.ts';
import { servedInline, servedType, storedBytesHeaders } from './serving-policy.ts';
import type { FileStorage } from './storage.ts';

/** What a download sends of a file. */
export interface StoredFile {
  storedFileName: string;
  originalFileName: string;
  mimeType: string;
  checksum: string;
  /** Asked for inline (the signed URL's `inline=true`); served so only for the types serving-policy.ts allows. */
  inline: boolean;
}

export interface SendOptions {
  /**
   * Called once it is settled that a GET will be answered with the file's bytes (200 or 206), before
   * any header is written: a download's audit row, so that a 416 or a HEAD is never audited and a
   * row that cannot be written fails the download with an error body.
   */
  beforeBytes?: () => Promise<void>;
}

/**
 * Streams a stored file from `storage` (docs/interface.md#files; through dms-svc from either store:
 * docs/adr/0144-files-on-s3-compatible-storage.md): Content-Type (`application/octet-stream` for a type a
 * browser would run or apply, serving-policy.ts), Content-Length, Content-Disposition
 * (inline or attachment, RFC 6266 `filename*` by the content-disposition package), nosniff,
 * no-store, Accept-Ranges, ETag (the checksum), and the headers by which stored bytes never act on
 * the platform's origin (serving-policy.ts): inline only for the types safe to show, a sandbox
 * without script. One valid range is 206 with Content-Range, one past the end 416 with
 * `bytes *\/<size>`, anything else the whole file (byte-range.ts). HEAD sends the headers alone.
 * Resolves with the status sent once the whole response is written; rejects when it was cut off.
 */
export async function sendFile(req: IncomingMessage, res: ServerResponse, storage: FileStorage, file: StoredFile, options: SendOptions = {}): Promise<number> {
  const size = await storage.sizeOf(file.storedFileName);
  const range = rangeOf(req.headers.range, size);
  if (req.method === 'GET' && range.kind !== 'unsatisfiable') await options.beforeBytes?.();

  const inline = servedInline(file.mimeType, file.inline);
  res.setHeader('Content-Type', servedType(file.mimeType));
  res.setHeader('Content-Disposition', contentDisposition(file.originalFileName, { type: inline ? 'inline' : 'attachment' }));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('ETag', `"${file.checksum}"`);
  for (const [name, value] of Object.entries(storedBytesHeaders(file.mimeType, inline))) res.setHeader(name, value);
  if (range.kind === 'unsatisfiable') {
    res.writeHead(416, { 'Content-Range': `bytes */${size}`, 'Content-Length': 0 });
    res.end();
    return 416;
  }
  const status = range.kind === 'part' ? 206 : 200;
  const [start, end] = range.kind === 'part' ? [range.start, range.end] : [0, size - 1];
  if (range.kind === 'part') res.setHeader('Content-Range', `bytes ${start}-${end}/${size}`);

  const length = size === 0 ? 0 : end - start + 1;
  res.writeHead(status, { 'Content-Length': length });
  if (req.method === 'HEAD' || length === 0) {
    res.end();
    return status;
  }
  await storage.writeRange(res, file.storedFileName, start, end);
  return status;
}
