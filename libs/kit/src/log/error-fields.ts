import { scrubSecrets } from './redaction.ts';

/** What a log line shows of an error. */
export interface ErrorFields {
  type: string;
  message: string;
  stack?: string;
  code?: string | number;
}

/**
 * pino's serializer of `err`: the error's name, message, stack and code, scrubbed of secrets
 * (redaction.ts). Not pino's standard serializer, which copies every enumerable property of the
 * error: a driver error's parameters or a gRPC error's metadata would reach the log unredacted.
 *
 * @example
 * log.error({ err: error, refId }, 'unexpected failure');
 */
export function errorFields(error: unknown): ErrorFields {
  if (!(error instanceof Error)) return { type: typeof error, message: scrubSecrets(String(error)) };
  const fields: ErrorFields = { type: error.name, message: scrubSecrets(error.message) };
  if (error.stack) fields.stack = scrubSecrets(error.stack);
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') fields.code = code;
  return fields;
}
