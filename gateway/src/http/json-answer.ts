import type { Response } from 'express';

/** What express's `res.json` makes of `application/json` once it has looked the type up and added the charset. */
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Answers `value` as JSON, with the bytes and headers `res.json` gives (express's default JSON
 * settings, which the gateway keeps), without its two readings of the type on every answer: `res.set`
 * looks `application/json` up in the MIME table, then `res.send` parses the result again to set its
 * charset. The body goes to `res.send` as a Buffer, so Content-Length, HEAD and a fresh request's 304
 * are `res.send`'s as before (test/json-answer.test.ts compares the bytes on the wire). A response
 * that already has a type, or a value JSON has no text for, goes through `res.json` itself.
 */
export function sendJson(res: Response, value: unknown): void {
  const text = res.hasHeader('content-type') ? undefined : JSON.stringify(value);
  if (text === undefined) {
    res.json(value);
    return;
  }
  res.setHeader('Content-Type', JSON_TYPE);
  res.send(Buffer.from(text));
}
