import { DomainError } from '../errors/domain-error.ts';

/**
 * An error in the http-errors style that express and body-parser raise while reading a request:
 * a 4xx `status` (or `statusCode`) and, from body-parser, a `type`.
 */
interface HttpStyleError {
  status?: unknown;
  statusCode?: unknown;
  type?: unknown;
  limit?: unknown;
}

/**
 * The domain error of a request that could not be read (by the gateway's express and body-parser,
 * or by dms-svc's `readJsonBody`), or undefined when `error` is not one (no 4xx status: a failure
 * of the process's own, 5xx).
 *
 * - 413 (body over its limit, MAX_JSON_BYTES at the gateway): 413 SVC-SYS-3001, the contract's code for "too large".
 * - 415 (a Content-Encoding or charset body-parser cannot decode): 400 SVC-SYS-2001 naming the
 *   header, since each code has one HTTP status (docs/interface.md#errors) and SVC-SYS-3002 is a file type.
 * - Any other 4xx (JSON that does not parse, bytes that are not UTF-8, a body that does not
 *   decompress, a path parameter that does not percent-decode): 400 SVC-SYS-2001.
 *
 * @example
 * requestError(createError(415, 'unsupported', { type: 'encoding.unsupported' }))
 * // DomainError SVC-SYS-2001 header.invalid { header: 'Content-Encoding' }
 */
export function requestError(error: unknown): DomainError | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const http = error as HttpStyleError;
  const status = typeof http.status === 'number' ? http.status : http.statusCode;
  if (typeof status !== 'number' || status < 400 || status > 499) return undefined;
  if (status === 413) return new DomainError('SVC-SYS-3001', 'body.tooLarge', { limit: String(http.limit ?? '') });
  switch (http.type) {
    case 'encoding.unsupported':
      return new DomainError('SVC-SYS-2001', 'header.invalid', { header: 'Content-Encoding' });
    case 'charset.unsupported':
      return new DomainError('SVC-SYS-2001', 'header.invalid', { header: 'Content-Type' });
    case 'entity.parse.failed':
    case 'entity.verify.failed':
      return new DomainError('SVC-SYS-2001', 'body.malformed');
  }
  if (error instanceof URIError) return new DomainError('SVC-SYS-2001', 'param.invalid', { param: 'path' });
  // body-parser's other refusals (aborted, wrong length) and zlib's (not the encoding it says)
  return new DomainError('SVC-SYS-2001', 'body.unreadable');
}
