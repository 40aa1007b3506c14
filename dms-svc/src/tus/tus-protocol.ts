/**
 * The service's side of tus 1.0.0 as every part of the resumable uploads reads it: the paths and
 * upload ids, the answer headers the service adds, and the request headers it checks itself.
 */
import type { IncomingMessage } from 'node:http';
import { TUS_CONTENT_TYPE } from '@platform/kit/errors/codes.ts';
import { DomainError, invalidField } from '@platform/kit/errors/domain-error.ts';

/** The creation path; an upload's is `${TUS_PATH}/<id>`. The gateway's public path, so a relative Location is the client's. */
export const TUS_PATH = '/api/dms-file/tus';
/** An upload's id: @tus/server's default naming, 16 random bytes in hex. */
export const UPLOAD_ID = /^[0-9a-f]{32}$/;
/** The answer header naming the dms-file a completed upload became. */
export const FILE_ID_HEADER = 'Upload-File-Id';
/** The answer header naming the live file of the tenant with the same bytes, when there is one. */
export const DUPLICATE_HEADER = 'Upload-Duplicate-Of';
/** A length or offset header's value: a non-negative integer that fits a double exactly. */
export const WHOLE_NUMBER = /^\d{1,16}$/;
const OFFSET_TYPE = 'application/offset+octet-stream';

/** The route template of a tus path, for the metrics; undefined for another path. */
export function tusRouteOf(path: string): string | undefined {
  if (path === TUS_PATH) return TUS_PATH;
  return path.startsWith(`${TUS_PATH}/`) ? `${TUS_PATH}/:id` : undefined;
}

/** The headers of a PATCH that tus reads: Upload-Offset a non-negative integer, Content-Type application/offset+octet-stream. */
export function checkPatchHeaders(req: IncomingMessage): void {
  if (!isOffsetType(req.headers['content-type'])) throw new DomainError(TUS_CONTENT_TYPE.code, TUS_CONTENT_TYPE.messageKey);
  const offset = req.headers['upload-offset'];
  if (typeof offset !== 'string' || !WHOLE_NUMBER.test(offset)) throw invalidField('Upload-Offset');
}

/** Whether a Content-Type is tus's for upload bytes. */
export function isOffsetType(type: string | undefined): boolean {
  return (type ?? '').split(';', 1)[0]?.trim().toLowerCase() === OFFSET_TYPE;
}

/** Whether a request carries bytes (a PATCH's, or a creation's own with creation-with-upload). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
