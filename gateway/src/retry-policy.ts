import type { ServiceDefinition } from '@grpc/grpc-js';
import { AuthServiceService } from '@platform/libs/gen/platform/core/v1/auth.ts';
import { ExceptionLogServiceService } from '@platform/libs/gen/platform/core/v1/exception_log.ts';
import { SessionServiceService } from '@platform/libs/gen/platform/core/v1/session.ts';
import { DmsAuditLogServiceService } from '@platform/libs/gen/platform/dms/v1/dms_audit_log.ts';
import { DmsRetentionPolicyServiceService } from '@platform/libs/gen/platform/dms/v1/dms_retention_policy.ts';
import { registry } from './registry.ts';

/**
 * The RPCs that only read, and so may be sent again when a service was unavailable: Get*, List*,
 * Search*, Page* and these few. Everything else writes (Create, Update, Delete, the accrual moves,
 * login, logout, change-password, switch-account, the session and exception records) and is never
 * retried: a write that reached a service which then failed must not happen twice.
 */
const READS = /^(Get|List|Search|Page)[A-Z]/;
const OTHER_READS = new Set(['Me', 'CheckSession', 'VerifyDmsAuditLogs', 'DryRunDmsRetentionPolicy']);

/** Every service the gateway calls. */
const DEFINITIONS: readonly ServiceDefinition[] = [
  ...registry.map((resource) => resource.grpc),
  AuthServiceService,
  SessionServiceService,
  ExceptionLogServiceService,
  DmsAuditLogServiceService,
  DmsRetentionPolicyServiceService,
];

/** `{service, method}` of each read-only RPC, from the definitions' paths (`/pkg.Service/Method`). */
export function readOnlyMethods(definitions: readonly ServiceDefinition[] = DEFINITIONS): { service: string; method: string }[] {
  const names = new Map<string, { service: string; method: string }>();
  for (const definition of definitions) {
    for (const { path } of Object.values(definition)) {
      const [service = '', method = ''] = path.slice(1).split('/');
      if (READS.test(method) || OTHER_READS.has(method)) names.set(path, { service, method });
    }
  }
  return [...names.values()];
}

/**
 * grpc-js service config (gRFC A6): a read-only call that ends UNAVAILABLE (the service restarting,
 * its connection refused or reset) is tried up to 3 times, 100 ms then 200 ms apart (jittered),
 * within the call's own deadline; retries stop under a throttle when most calls fail (a service that
 * stays down gets no retry storm). Writes have no retry policy.
 */
export function retryServiceConfig(): string {
  return JSON.stringify({
    methodConfig: [
      {
        name: readOnlyMethods(),
        retryPolicy: {
          maxAttempts: 3,
          initialBackoff: '0.1s',
          maxBackoff: '1s',
          backoffMultiplier: 2,
          retryableStatusCodes: ['UNAVAILABLE'],
        },
      },
    ],
    retryThrottling: { maxTokens: 10, tokenRatio: 0.1 },
  });
}
