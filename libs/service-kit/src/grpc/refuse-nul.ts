import { invalidField } from '@platform/kit/errors/domain-error.ts';

/**
 * Refuses (400 SVC-SYS-2001, naming the field) a decoded request in which any string carries NUL:
 * PostgreSQL cannot store it in text and refuses it even as a query parameter, so it would
 * otherwise surface as a 500 from whichever query first meets it. Every service applies this to
 * every call, whoever the client is; the gateway refuses such input earlier with the JSON names.
 *
 * @example
 * refuseNul({ login: { userCode: 'a\u0000' } }) // throws invalidField('login.userCode')
 */
export function refuseNul(value: unknown, path = ''): void {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) throw invalidField(path || 'request');
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => refuseNul(item, `${path}[${index}]`));
  } else if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) throw invalidField(path || 'request');
      refuseNul(item, path ? `${path}.${key}` : key);
    }
  }
}
