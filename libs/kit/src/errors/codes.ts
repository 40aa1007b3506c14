import { status as GrpcStatus } from '@grpc/grpc-js';

/**
 * The platform's error codes (docs/interface.md#errors), each with its HTTP status, the gRPC status
 * that carries it between the services and the gateway, and when a client gets it (the page's table
 * of codes is generated from these: `npm run docs:gen`).
 *
 * @example
 * ERRORS['SVC-SYS-4002'].http // 409
 */
export const ERRORS = {
  'SVC-SYS-1001': { http: 401, grpc: GrpcStatus.UNAUTHENTICATED, when: 'no token, or an invalid, expired or revoked one' },
  'SVC-SYS-1002': { http: 401, grpc: GrpcStatus.UNAUTHENTICATED, when: 'wrong user code or password at login' },
  'SVC-SYS-1003': { http: 403, grpc: GrpcStatus.PERMISSION_DENIED, when: 'a role or tenant the caller does not hold' },
  'SVC-SYS-1004': { http: 401, grpc: GrpcStatus.UNAUTHENTICATED, when: 'API key missing or wrong' },
  'SVC-SYS-1005': { http: 400, grpc: GrpcStatus.INVALID_ARGUMENT, when: 'captcha token rejected' },
  'SVC-SYS-1006': { http: 400, grpc: GrpcStatus.INVALID_ARGUMENT, when: 'wrong current password' },
  'SVC-SYS-2001': { http: 400, grpc: GrpcStatus.INVALID_ARGUMENT, when: 'malformed body, parameter or field' },
  'SVC-SYS-2002': { http: 400, grpc: GrpcStatus.INVALID_ARGUMENT, when: 'list without `filter.crProcessId`' },
  'SVC-SYS-3001': { http: 413, grpc: GrpcStatus.RESOURCE_EXHAUSTED, when: 'upload or body too large' },
  'SVC-SYS-3002': { http: 415, grpc: GrpcStatus.INVALID_ARGUMENT, when: 'file type not allowed' },
  'SVC-SYS-3003': { http: 403, grpc: GrpcStatus.PERMISSION_DENIED, when: 'download signature invalid' },
  'SVC-SYS-3004': { http: 403, grpc: GrpcStatus.PERMISSION_DENIED, when: 'download URL expired' },
  'SVC-SYS-3005': { http: 401, grpc: GrpcStatus.UNAUTHENTICATED, when: 'share-link password needed (a wrong one at validate-password: 403 with this code)' },
  'SVC-SYS-3006': { http: 410, grpc: GrpcStatus.FAILED_PRECONDITION, when: 'share link expired, passive or used up' },
  'SVC-SYS-3007': { http: 413, grpc: GrpcStatus.RESOURCE_EXHAUSTED, when: 'storage quota exceeded' },
  'SVC-SYS-4001': { http: 404, grpc: GrpcStatus.NOT_FOUND, when: 'record or path not found' },
  'SVC-SYS-4002': { http: 409, grpc: GrpcStatus.ABORTED, when: 'stale `version`' },
  'SVC-SYS-4003': { http: 409, grpc: GrpcStatus.FAILED_PRECONDITION, when: 'delete of a referenced record' },
  'SVC-SYS-4004': { http: 409, grpc: GrpcStatus.FAILED_PRECONDITION, when: 'state move not allowed' },
  'SVC-SYS-4005': { http: 409, grpc: GrpcStatus.ALREADY_EXISTS, when: 'duplicate of a unique field' },
  'SVC-SYS-5001': { http: 500, grpc: GrpcStatus.INTERNAL, when: 'unexpected failure, logged under `refId`' },
  'SVC-SYS-5002': { http: 503, grpc: GrpcStatus.UNAVAILABLE, when: 'a backing service unavailable or timed out' },
} as const satisfies Record<string, { http: number; grpc: GrpcStatus; when: string }>;

export type ErrorCode = keyof typeof ERRORS;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERRORS, value);
}

/**
 * A failed If-Match: SVC-SYS-4002 (the record is not at the version the client named) answered as
 * the failed precondition it is, 412 (docs/interface.md#conditional-requests).
 */
export const PRECONDITION_FAILED = { code: 'SVC-SYS-4002', messageKey: 'precondition.failed', http: 412 } as const;

/**
 * An Idempotency-Key sent again with another request: SVC-SYS-2001 (the request is not the one the
 * key was given for) answered 422 (docs/interface.md#idempotent-requests).
 */
export const KEY_REUSED = { code: 'SVC-SYS-2001', messageKey: 'idempotency.keyReused', http: 422 } as const;

/**
 * A resumable (tus) request without `Tus-Resumable: 1.0.0`: SVC-SYS-2001 answered 412, as tus 1.0.0
 * has it (docs/adr/0094-resumable-uploads-across-replicas.md).
 */
export const TUS_VERSION = { code: 'SVC-SYS-2001', messageKey: 'tus.version', http: 412 } as const;

/** A tus PATCH whose Content-Type is not application/offset+octet-stream: SVC-SYS-2001 answered 415, as tus 1.0.0 has it. */
export const TUS_CONTENT_TYPE = { code: 'SVC-SYS-2001', messageKey: 'tus.contentType', http: 415 } as const;

/**
 * An upload the virus scan found malware in: SVC-SYS-2001 on the field `file` (the content the client
 * sent is what is wrong) answered 422, as a reused idempotency key is (docs/interface.md#files).
 */
export const UPLOAD_INFECTED = { code: 'SVC-SYS-2001', messageKey: 'upload.infected', http: 422 } as const;

/** The errors answered with a status of their own rather than their code's, by message key. */
export const OWN_STATUS_ERRORS = [PRECONDITION_FAILED, KEY_REUSED, TUS_VERSION, TUS_CONTENT_TYPE, UPLOAD_INFECTED] as const;

/**
 * The HTTP status of an error: its code's, except for those of OWN_STATUS_ERRORS.
 *
 * @example
 * httpStatusOf({ code: 'SVC-SYS-4002', messageKey: 'precondition.failed' }) // 412
 * httpStatusOf({ code: 'SVC-SYS-2001', messageKey: 'idempotency.keyReused' }) // 422
 */
export function httpStatusOf(error: { code: ErrorCode; messageKey: string }): number {
  for (const own of OWN_STATUS_ERRORS) if (own.code === error.code && own.messageKey === error.messageKey) return own.http;
  return ERRORS[error.code].http;
}
