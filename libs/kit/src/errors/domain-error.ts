import type { ErrorCode } from './codes.ts';
import type { MessageKey } from '../i18n/messages.ts';

export type ErrorParams = Record<string, string>;

/**
 * An error the platform answers on purpose: a code of docs/interface.md#errors, a message key of the i18n
 * catalogue and the parameters of that message. Services throw it; one mapper turns it into a gRPC
 * status and the gateway turns that into the HTTP error body.
 *
 * @example
 * throw new DomainError('SVC-SYS-2001', 'field.unknown', { field: 'colour' });
 */
export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly messageKey: MessageKey;
  readonly params: ErrorParams;

  constructor(code: ErrorCode, messageKey: MessageKey, params: ErrorParams = {}) {
    super(`${code} ${messageKey} ${JSON.stringify(params)}`);
    this.name = 'DomainError';
    this.code = code;
    this.messageKey = messageKey;
    this.params = params;
  }
}

/** 400 SVC-SYS-2001 for one field. */
export function invalidField(field: string, messageKey: MessageKey = 'field.invalid', params: ErrorParams = {}): DomainError {
  return new DomainError('SVC-SYS-2001', messageKey, { field, ...params });
}

/** 404 SVC-SYS-4001. */
export function notFound(resource: string): DomainError {
  return new DomainError('SVC-SYS-4001', 'record.notFound', { resource });
}

/** 403 SVC-SYS-1003. */
export function forbidden(): DomainError {
  return new DomainError('SVC-SYS-1003', 'access.denied');
}

/** 401 SVC-SYS-1001. */
export function unauthenticated(): DomainError {
  return new DomainError('SVC-SYS-1001', 'session.expired');
}
