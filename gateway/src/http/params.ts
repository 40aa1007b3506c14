import { DomainError } from '@platform/kit/errors/domain-error.ts';

/**
 * A record id in a path or query parameter: a positive whole number, else 400 SVC-SYS-2001 naming
 * the parameter.
 *
 * @example
 * idParam('42') // 42
 * idParam('1e3', 'crProcessId') // throws: Parameter is invalid: crProcessId
 */
export function idParam(raw: string | undefined, name = 'id'): number {
  const id = raw !== undefined && /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw new DomainError('SVC-SYS-2001', 'param.invalid', { param: name });
  return id;
}
