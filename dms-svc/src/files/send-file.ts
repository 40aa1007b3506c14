import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { create as contentDisposition } from 'content-disposition';
import rangeParser from 'range-parser';
import { writeFileRange } from './write-file-range.ts';

/** What a download sends of a file. */
export interface StoredFile {
  path: string;
  originalFileName: string;
  mimeType: string;
  checksum: string;
  inline: boolean;
}

/**
 * Streams a stored file (decisions.md §5): Content-Type, Content-Length, Content-Disposition
 * (inline or attachment, RFC 6266 `filename*` by the content-disposition package), nosniff,
 * no-store, Accept-Ranges, ETag (the checksum). One range (`bytes=a-b`, `a-`, `-n`, parsed by
 * range-parser) is 206 with Content-Range; an unsatisfiable one 416 with `bytes *\/<size>`; a
 * malformed or multiple one is answered with the whole file. HEAD sends the headers alone.
 * Resolves with the status sent once the whole response is written; rejects when it was cut off.
 */
export async function sendFile(req: IncomingMessage, res: ServerResponse, file: StoredFile): Promise<number> {
  const { size } = await stat(file.path);
  res.setHeader('Content-Type', file.mimeType);
  res.setHeader('Content-Disposition', contentDisposition(file.originalFileName, { type: file.inline ? 'inline' : 'attachment' }));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('ETag', `"${file.checksum}"`);

  let start = 0;
  let end = size - 1;
  let status = 200;
  const header = req.headers.range;
  if (header !== undefined) {
    const ranges = rangeParser(size, header, { combine: true });
    if (ranges === -1) {
      res.writeHead(416, { 'Content-Range': `bytes */${size}`, 'Content-Length': 0 });
      res.end();
      return 416;
    }
    if (ranges !== -2 && ranges.type === 'bytes' && ranges.length === 1 && ranges[0]) {
      ({ start, end } = ranges[0]);
      status = 206;
      res.setHeader('Content-Range', `bytes ${start}-${end}/${size}`);
    }
  }
  const length = size === 0 ? 0 : end - start + 1;
  res.writeHead(status, { 'Content-Length': length });
  if (req.method === 'HEAD' || length === 0) {
    res.end();
    return status;
  }
  await writeFileRange(res, file.path, start, end);
  return status;
}
