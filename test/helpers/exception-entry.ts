import { api, type ApiResponse } from './platform.ts';

/**
 * `GET /api/logs/exceptions/{refId}`, asked again until the entry is there or 10 s have passed: a
 * process records a failure beside its answer (the gateway through core-svc), so the answer may
 * come first, and on a loaded machine the entry has taken over 2 s. The last answer: 200 with the
 * entry, or the 404 that says it never came.
 */
export async function exceptionEntry(refId: string): Promise<ApiResponse> {
  let entry = await api('GET', `/api/logs/exceptions/${refId}`, { apiKey: true });
  for (let i = 0; i < 100 && entry.status === 404; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    entry = await api('GET', `/api/logs/exceptions/${refId}`, { apiKey: true });
  }
  return entry;
}
