import { randomUUID } from 'node:crypto';
import { Metadata, status as GrpcStatus, type ServiceError, type StatusObject } from '@grpc/grpc-js';
import { ERRORS, isErrorCode, type ErrorCode } from './codes.ts';
import { DomainError, type ErrorParams } from './domain-error.ts';
import { isMessageKey, type MessageKey } from '../i18n/messages.ts';

const CODE = 'x-error-code';
const KEY = 'x-error-key';
const PARAMS = 'x-error-params';
const REF_ID = 'x-error-ref-id';

/** A gRPC status for a DomainError, with code, message key and parameters in metadata. */
export function toGrpcStatus(error: DomainError): Partial<StatusObject> {
  const metadata = new Metadata();
  metadata.set(CODE, error.code);
  metadata.set(KEY, error.messageKey);
  metadata.set(PARAMS, paramsText(error.params));
  if (error.params.refId) metadata.set(REF_ID, error.params.refId);
  return { code: ERRORS[error.code].grpc, details: error.code, metadata };
}

/** Longest parameter value sent along (a field name a client made up may be as long as its body). */
const MAX_PARAM_LENGTH = 200;

/**
 * The parameters as JSON that a metadata value can carry: grpc-js refuses (throws on) anything but
 * printable ASCII there, and a parameter may quote a client's text (an unknown filter key `ünvan`).
 * Every other character is written as a JSON `\uXXXX` escape, which JSON.parse reads back as it was.
 */
function paramsText(params: ErrorParams): string {
  const short = Object.fromEntries(
    Object.entries(params).map(([name, value]) => {
      const chars = [...value];
      return [name, chars.length > MAX_PARAM_LENGTH ? `${chars.slice(0, MAX_PARAM_LENGTH).join('')}…` : value];
    }),
  );
  return JSON.stringify(short).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Reads back the DomainError a service sent. A status without our metadata (a transport failure,
 * a deadline) becomes SVC-SYS-5002 when the backend was unreachable and SVC-SYS-5001 otherwise.
 */
export function fromGrpcError(error: ServiceError | Error): DomainError {
  const serviceError = error as Partial<ServiceError>;
  const metadata = serviceError.metadata;
  const code = metadata?.get(CODE)[0];
  const key = metadata?.get(KEY)[0];
  if (isErrorCode(code)) {
    const params = parseParams(metadata?.get(PARAMS)[0]);
    return new DomainError(code, isMessageKey(key) ? key : fallbackKey(code), params);
  }
  switch (serviceError.code) {
    case GrpcStatus.UNAVAILABLE:
    case GrpcStatus.DEADLINE_EXCEEDED:
    case GrpcStatus.CANCELLED:
      return new DomainError('SVC-SYS-5002', 'service.unavailable');
    case GrpcStatus.RESOURCE_EXHAUSTED:
      return new DomainError('SVC-SYS-2001', 'body.tooLarge', { limit: 'max' });
    default:
      return new DomainError('SVC-SYS-5001', 'server.error', { refId: randomUUID() });
  }
}

function fallbackKey(code: ErrorCode): MessageKey {
  return code === 'SVC-SYS-5001' ? 'server.error' : 'field.invalid';
}

function parseParams(raw: unknown): ErrorParams {
  if (typeof raw !== 'string') return {};
  try {
    const value: unknown = JSON.parse(raw);
    if (value === null || typeof value !== 'object') return {};
    return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}
