import { Client, type ChannelCredentials } from '@grpc/grpc-js';
import { ExceptionLogServiceService, type ExceptionEntry } from '../gen/platform/core/v1/exception_log.ts';
import type { Logger } from '../log/logger.ts';
import { scrubSecrets } from '../log/redaction.ts';
import { toMetadata } from './metadata.ts';

/** What is known of an unexpected failure where it happened. */
export interface Failure {
  refId: string;
  service: string;
  errorCode: 'SVC-SYS-5001' | 'SVC-SYS-5002';
  error: unknown;
  path?: string | undefined;
  method?: string | undefined;
  userCode?: string | undefined;
  crProcessId?: number | undefined;
  projectCode?: string | undefined;
  /** The request's id (X-Request-Id), which its log lines carry too. */
  requestId?: string | undefined;
}

/** Writes one exception-log entry; never throws (a failure to record is itself only logged). */
export type ExceptionRecorder = (failure: Failure) => void;

const MAX_TEXT = 10_000;

/**
 * The entry of a failure: its own message and stack, kept for operators, never sent to a client
 * (scrubbed of shaped secrets like a log line: a driver's message may quote a password hash).
 */
export function entryOf(failure: Failure): ExceptionEntry {
  const error = failure.error instanceof Error ? failure.error : new Error(String(failure.error));
  return {
    refId: failure.refId,
    service: failure.service,
    errorCode: failure.errorCode,
    message: scrubSecrets(`${error.name}: ${error.message}`).slice(0, MAX_TEXT),
    path: failure.path === undefined ? undefined : scrubSecrets(failure.path).slice(0, 1000),
    method: failure.method?.slice(0, 16),
    userCode: failure.userCode,
    crProcessId: failure.crProcessId,
    stack: error.stack === undefined ? undefined : scrubSecrets(error.stack).slice(0, MAX_TEXT),
    createdAt: new Date().toISOString(),
    projectCode: failure.projectCode?.slice(0, 100),
    requestId: failure.requestId,
  };
}

/**
 * A recorder that sends entries to core-svc's ExceptionLogService under `credential()` (bpm-svc and
 * dms-svc: the internal credential; the gateway: its own, libs/kit/src/auth/gateway-call-key.ts;
 * core-svc writes its own entries directly).
 */
export function coreExceptionRecorder(
  coreAddress: string,
  channel: ChannelCredentials,
  credential: () => string,
  log: Logger,
): { record: ExceptionRecorder; close(): void } {
  const client = new Client(coreAddress, channel);
  const method = ExceptionLogServiceService.recordException;
  const record: ExceptionRecorder = (failure) => {
    // core-svc's lines about recording it belong to the same request
    const metadata = toMetadata({ token: credential(), lang: 'en', requestId: failure.requestId });
    client.makeUnaryRequest(
      method.path,
      method.requestSerialize,
      method.responseDeserialize,
      { entry: entryOf(failure) },
      metadata,
      { deadline: Date.now() + 5_000 },
      (error) => {
        if (error) log.warn({ refId: failure.refId, err: error }, 'could not record an exception entry');
      },
    );
  };
  return { record, close: () => client.close() };
}
