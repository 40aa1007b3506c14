/** The error body of docs/interface.md#errors, as the tests check it. */
import type { ExecutionContext } from 'ava';
import type { ApiResponse } from './platform.ts';

/**
 * `{status: "ERROR", error_code, message}` with the given HTTP status and code, a message that says
 * something, and neither a stack trace nor SQL in the text (docs/interface.md#errors).
 */
export function assertErrorBody(t: ExecutionContext, res: Pick<ApiResponse, 'status' | 'body' | 'text'>, status: number, code: string): void {
  t.is(res.status, status, res.text);
  t.is(res.body?.status, 'ERROR', res.text);
  t.is(res.body?.error_code, code, res.text);
  t.regex(String(res.body?.message), /\S/);
  t.false(/at \w+ \(|\.ts:\d+|select |insert |update "/i.test(res.text), `no stack or SQL in ${res.text}`);
}

/** The same for a 400 SVC-SYS-2001 whose message names `name` (a field, parameter or header). */
export function assertInvalid(t: ExecutionContext, res: Pick<ApiResponse, 'status' | 'body' | 'text'>, name: string): void {
  assertErrorBody(t, res, 400, 'SVC-SYS-2001');
  t.true(String(res.body?.message).includes(name), `the message names ${name}: ${res.text}`);
}
