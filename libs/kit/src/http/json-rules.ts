import { isUtf8 } from 'node:buffer';
import bodyParser from 'body-parser';
import { DomainError, invalidField } from '../errors/domain-error.ts';

/** Deepest nesting of arrays and objects in a body: the interface's deepest is 3 (`sorts[0].field`). */
export const MAX_JSON_DEPTH = 32;

/**
 * The platform's JSON body reader (body-parser's `json`, up to `limit` bytes, gzip / deflate / br
 * decoded, `application/json` only): the gateway's for every JSON route and dms-svc's for
 * validate-password, which the gateway hands on unread. Its verify hook refuses a charset other
 * than UTF-8 and bytes that are not UTF-8 (RFC 8259 §8.1), which body-parser would otherwise decode
 * to U+FFFD; its errors are http-errors with a 4xx status that `requestError` maps. A body of
 * another Content-Type is left unread (`req.body` undefined): not an object, 400 where one is expected.
 *
 * @example
 * app.use(jsonParser(1024 * 1024), (req, _res, next) => { checkJson(req.body); next(); });
 */
export function jsonParser(limit: number): ReturnType<typeof bodyParser.json> {
  return bodyParser.json({ limit, verify: utf8Only });
}

/** body-parser's verify hook: thrown errors keep their 4xx status (request-errors.ts maps them). */
function utf8Only(_req: unknown, _res: unknown, body: Buffer, encoding: string): void {
  if (encoding.toLowerCase() !== 'utf-8') throw Object.assign(new Error('JSON is UTF-8'), { status: 400, type: 'charset.unsupported' });
  if (!isUtf8(body)) throw Object.assign(new Error('body is not UTF-8'), { status: 400, type: 'entity.verify.failed' });
}

/**
 * Walks a parsed JSON value once, without recursion (a deep body must not exhaust the stack),
 * throwing 400 SVC-SYS-2001 at the first string, key or depth that fails, in document order:
 *
 * - every string and every key is well-formed Unicode (no lone surrogate, which `\ud800` in JSON
 *   gives) without a NUL (PostgreSQL stores neither), naming the field path
 *   (`filter.partnerName`, `userProcessSelects[1].accountNo`);
 * - no key is `__proto__`, anywhere: it is an unknown field, since whatever copies the object later
 *   (the proto Struct of a list filter) would set a prototype instead and lose the key;
 * - nesting is at most MAX_JSON_DEPTH levels.
 *
 * @example
 * checkJson({ filter: { partnerName: 'a\u0000b' } }) // throws: Field is invalid: filter.partnerName
 */
export function checkJson(root: unknown): void {
  const pending: [value: unknown, path: string, depth: number][] = [[root, '', 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, path, depth] = next;
    if (typeof value === 'string') {
      if (!storable(value)) throw invalidField(path || 'body');
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) throw new DomainError('SVC-SYS-2001', 'body.tooDeep', { field: path || 'body', max: String(MAX_JSON_DEPTH) });
    const children: [unknown, string][] = Array.isArray(value)
      ? value.map((item, index) => [item, `${path}[${index}]`])
      : Object.entries(value).map(([key, item]) => {
          const at = path ? `${path}.${key}` : key;
          if (!storable(key)) throw invalidField(path ? `${path}.${escaped(key)}` : escaped(key));
          if (key === '__proto__') throw invalidField(at, 'field.unknown');
          return [item, at];
        });
    for (let index = children.length - 1; index >= 0; index--) {
      const [item, at] = children[index] as [unknown, string];
      pending.push([item, at, depth + 1]);
    }
  }
}

/** Text PostgreSQL can store: well-formed UTF-16 (so, UTF-8) without a NUL. */
function storable(text: string): boolean {
  return text.isWellFormed() && !text.includes('\u0000');
}

/** A key that is not storable, as JSON would write it, so that the message shows where it is. */
function escaped(key: string): string {
  return JSON.stringify(key).slice(1, -1);
}
