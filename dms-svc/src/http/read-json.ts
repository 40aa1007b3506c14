import type { IncomingMessage, ServerResponse } from 'node:http';
import { readJsonBody } from '@platform/kit/http/read-json-body.ts';
import { DomainError, invalidField } from '@platform/kit/errors/domain-error.ts';

/**
 * A small JSON object body of a public request, read here since the gateway proxies such paths
 * untouched, under the rules of every JSON body of the platform (libs/kit/src/http/read-json-body.ts:
 * UTF-8 `application/json` only, Content-Encoding decoded or refused, storable strings, over `limit`
 * bytes 413 SVC-SYS-3001); anything but an object is 400 SVC-SYS-2001.
 */
export async function readJsonObject(req: IncomingMessage, res: ServerResponse, limit: number): Promise<Record<string, unknown>> {
  const value = await readJsonBody(req, res, limit);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new DomainError('SVC-SYS-2001', 'body.notObject');
  return value as Record<string, unknown>;
}

/** The one string field `name` of `body`, which may hold nothing else (docs/interface.md#records: unknown fields are refused). */
export function onlyString(body: Record<string, unknown>, name: string): string {
  const unknown = Object.keys(body).find((key) => key !== name);
  if (unknown !== undefined) throw new DomainError('SVC-SYS-2001', 'field.unknown', { field: unknown.slice(0, 100) });
  const value = body[name];
  if (value === undefined || value === null) throw invalidField(name, 'field.required');
  if (typeof value !== 'string') throw invalidField(name, 'field.type', { type: 'string' });
  return value;
}
