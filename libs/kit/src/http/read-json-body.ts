import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkJson, jsonParser } from './json-rules.ts';
import { requestError } from './request-errors.ts';

/**
 * A JSON body read by a plain node:http server under the rules of the gateway's JSON routes
 * (json-rules.ts): `application/json` in UTF-8 only, Content-Encoding decoded or refused, at most
 * `limit` bytes (413 SVC-SYS-3001), every string storable, no `__proto__`, bounded depth; a failure
 * is the DomainError the gateway would answer (request-errors.ts). A body of another Content-Type
 * (or none) resolves undefined, for the caller to refuse as not an object. The request is read to
 * its end either way, so the answer reaches the client.
 *
 * @example
 * const body = await readJsonBody(req, res, 4096); // dms-svc's validate-password
 */
export function readJsonBody(req: IncomingMessage, res: ServerResponse, limit: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    jsonParser(limit)(req, res, (error?: unknown) => {
      if (error) {
        reject(requestError(error) ?? error);
        return;
      }
      const body = (req as IncomingMessage & { body?: unknown }).body;
      // a body body-parser did not read (another Content-Type) is read and dropped: the answer must reach the client
      if (!req.complete) req.resume();
      try {
        checkJson(body);
      } catch (invalid) {
        reject(invalid);
        return;
      }
      resolve(body);
    });
  });
}
