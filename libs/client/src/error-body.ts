import type { ErrorBody } from './schema.d.ts';

/**
 * Whether an answer's `error` is the document's error body (`ErrorBody`: status, error_code,
 * message). Most error answers carry it; the IP filter's 403 and the rate limit's 429 have bodies
 * of their own (`IpFilterRefusal`, `RateLimitBody`), so openapi-fetch types `error` as their union
 * and this narrows it.
 *
 * @example
 * const { error, response } = await client.PUT('/api/branch/{key}', { params: { path: { key } }, body });
 * if (response.status === 409 && isErrorBody(error)) console.log(error.error_code); // 'SVC-SYS-4002'
 */
export function isErrorBody(error: unknown): error is ErrorBody {
  if (typeof error !== 'object' || error === null) return false;
  const body = error as Record<string, unknown>;
  return body.status === 'ERROR' && typeof body.error_code === 'string' && typeof body.message === 'string';
}
