import type { IncomingMessage } from 'node:http';
import { DomainError, invalidField } from '@platform/libs/errors/domain-error.ts';

/**
 * A small JSON object body of a public request, read here since the gateway proxies such paths
 * untouched: more than `limit` bytes, malformed JSON or anything but an object is 400 SVC-SYS-2001.
 */
export async function readJsonObject(req: IncomingMessage, limit: number): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      req.resume();
      throw new DomainError('SVC-SYS-2001', 'body.tooLarge', { limit: String(limit) });
    }
    chunks.push(chunk);
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new DomainError('SVC-SYS-2001', 'body.malformed');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new DomainError('SVC-SYS-2001', 'body.notObject');
  return value as Record<string, unknown>;
}

/** The one string field `name` of `body`, which may hold nothing else (decisions.md §9: unknown fields are refused). */
export function onlyString(body: Record<string, unknown>, name: string): string {
  const unknown = Object.keys(body).find((key) => key !== name);
  if (unknown !== undefined) throw new DomainError('SVC-SYS-2001', 'field.unknown', { field: unknown.slice(0, 100) });
  const value = body[name];
  if (value === undefined || value === null) throw invalidField(name, 'field.required');
  if (typeof value !== 'string') throw invalidField(name, 'field.type', { type: 'string' });
  return value;
}
