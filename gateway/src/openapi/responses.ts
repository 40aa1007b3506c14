import type { HeaderObject, ResponseObject } from 'openapi3-ts/oas31';
import { ERRORS, OWN_STATUS_ERRORS } from '@platform/kit/errors/codes.ts';
import { ref } from './shared-schemas.ts';

/** The error statuses the gateway's routes answer with, by component name. */
const ERROR_STATUSES = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  410: 'Gone',
  412: 'PreconditionFailed',
  413: 'TooLarge',
  415: 'UnsupportedMediaType',
  422: 'UnprocessableContent',
  500: 'ServerError',
  503: 'Unavailable',
} as const;
export type ErrorStatus = keyof typeof ERROR_STATUSES | 429;

const integerHeader = (description: string): HeaderObject => ({ description, schema: { type: 'integer', minimum: 0 } });

/** The codes of docs/interface.md#errors that one HTTP status carries, from the one table of them (and those answered with a status of their own). */
function codesOf(status: number): string[] {
  const own = OWN_STATUS_ERRORS.filter((error) => error.http === status).map((error) => error.code);
  const table = Object.entries(ERRORS)
    .filter(([, error]) => error.http === status)
    .map(([code]) => code);
  return [...new Set([...own, ...table])];
}

/** One error response: the error body with the codes of its status (the IP filter's 403 has none). */
function errorResponse(status: number): ResponseObject {
  const codes = codesOf(status);
  const body = { allOf: [ref('ErrorBody'), { properties: { error_code: { enum: codes } } }] };
  const schema = status === 403 ? { anyOf: [body, ref('IpFilterRefusal')] } : body;
  const refId = status >= 500 ? ' The body carries the refId of its exception-log entry.' : '';
  const ip = status === 403 ? " The IP filter's 403 has no error_code." : '';
  return { description: `Error body with ${codes.join(', ')}.${refId}${ip}`, content: { 'application/json': { schema } } };
}

/** components.responses: one per error status, and the 429 of the rate limiter. */
export function errorResponseComponents(): Record<string, ResponseObject> {
  const responses: Record<string, ResponseObject> = {};
  for (const [status, name] of Object.entries(ERROR_STATUSES)) responses[name] = errorResponse(Number(status));
  responses.TooManyRequests = {
    description: "Rate limit of the path's tier exceeded (or too many wrong login passwords): the rate-limit body.",
    headers: {
      'Retry-After': integerHeader('Whole seconds until one request passes.'),
      'RateLimit-Limit': integerHeader("The tier's requests per minute."),
      'RateLimit-Remaining': integerHeader('Whole tokens left.'),
      'RateLimit-Reset': integerHeader('Whole seconds until the bucket is full again.'),
    },
    content: { 'application/json': { schema: ref('RateLimitBody') } },
  };
  return responses;
}

/** A reference to the error response of `status`. */
export function errorRef(status: ErrorStatus): { $ref: string } {
  return { $ref: `#/components/responses/${status === 429 ? 'TooManyRequests' : ERROR_STATUSES[status]}` };
}
