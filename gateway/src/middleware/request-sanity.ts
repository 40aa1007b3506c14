import type { RequestHandler } from 'express';
import { DomainError } from '@platform/kit/errors/domain-error.ts';

/**
 * What X-Project-Code may hold: printable ASCII, at most 100 characters (the column that keeps it).
 * It travels on to the services as gRPC metadata, and grpc-js refuses (throws on) anything else.
 */
const PROJECT_CODE = /^[\x20-\x7e]{0,100}$/;

/**
 * Right after the IP filter: a request the gateway could not hand on intact is 400 SVC-SYS-2001
 * naming what is wrong, before any credential is asked for.
 *
 * - The path must percent-decode as UTF-8 (`%FF`, `%E0%A4%A`, an encoded surrogate or overlong
 *   form are not), without a NUL (PostgreSQL cannot store one).
 * - So must every name and value of the query string, naming the parameter (or `query` when its
 *   name is what does not decode).
 * - X-Project-Code, the one request header forwarded to the services as it came (the others are
 *   parsed: Accept-Language, the token; or go in message bodies: User-Agent), must be printable
 *   ASCII of at most 100 characters.
 *
 * Node's HTTP parser already refuses raw bytes outside printable ASCII in the request target.
 */
export const requestSanity: RequestHandler = (req, _res, next) => {
  const url = req.url;
  const mark = url.indexOf('?');
  if (decoded(mark < 0 ? url : url.slice(0, mark)) === undefined) {
    return next(new DomainError('SVC-SYS-2001', 'param.invalid', { param: 'path' }));
  }
  if (mark >= 0) {
    for (const pair of url.slice(mark + 1).split('&')) {
      const equals = pair.indexOf('=');
      const name = decoded(equals < 0 ? pair : pair.slice(0, equals));
      if (name === undefined || (equals >= 0 && decoded(pair.slice(equals + 1)) === undefined)) {
        return next(new DomainError('SVC-SYS-2001', 'param.invalid', { param: name === undefined ? 'query' : name.slice(0, 100) }));
      }
    }
  }
  const projectCode = req.headers['x-project-code'];
  if (projectCode !== undefined && (typeof projectCode !== 'string' || !PROJECT_CODE.test(projectCode))) {
    return next(new DomainError('SVC-SYS-2001', 'header.invalid', { header: 'X-Project-Code' }));
  }
  next();
};

/** The text of a percent-encoded URL part (`+` is a space in a query), or undefined when it is not UTF-8 or holds a NUL. */
function decoded(part: string): string | undefined {
  try {
    const text = decodeURIComponent(part.replaceAll('+', ' '));
    return text.includes('\u0000') ? undefined : text;
  } catch {
    return undefined;
  }
}
