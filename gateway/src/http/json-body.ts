import type { RequestHandler } from 'express';
import { checkJson, jsonParser } from '@platform/kit/http/json-rules.ts';
import { jsonTypeOnly } from './json-type.ts';

/**
 * Reads a JSON body (libs/kit/src/http/json-rules.ts: body-parser's json, up to `limit` bytes, gzip /
 * deflate / br decoded) and checks it once for what no route should have to think of; dms-svc
 * applies the same rules to the one JSON body it reads itself (validate-password):
 *
 * - the body is UTF-8 (RFC 8259 §8.1), no other charset, and its bytes are valid UTF-8: body-parser
 *   would otherwise decode invalid bytes to U+FFFD and store that;
 * - every string and every key is well-formed Unicode (no lone surrogate, which `\ud800` in JSON
 *   gives) without a NUL (PostgreSQL stores neither), else 400 SVC-SYS-2001 naming the field path
 *   (`filter.partnerName`, `userProcessSelects[1].accountNo`);
 * - no key is `__proto__`, anywhere: it is an unknown field (400), since whatever copies the object
 *   later (the proto Struct of a list filter) would set a prototype instead and lose the key;
 * - nesting is at most MAX_JSON_DEPTH levels;
 * - a POST, PUT or PATCH body is `application/json` (json-type.ts), checked before it is read.
 *
 * Each failure is one of the error handler's 4xx: none reaches a service.
 */
export function jsonBody(limit: number): RequestHandler[] {
  return [jsonTypeOnly, jsonParser(limit), checkedJson];
}

const checkedJson: RequestHandler = (req, _res, next) => {
  checkJson(req.body);
  next();
};
