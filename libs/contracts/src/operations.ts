import { BPM_OPERATIONS } from './bpm/operations.ts';
import { ACCESS_TOKEN_OPERATIONS } from './core/access-tokens.ts';
import { AUTH_OPERATIONS } from './core/auth.ts';
import { SECOND_FACTOR_OPERATIONS } from './core/second-factor.ts';
import { OIDC_OPERATIONS } from './core/oidc.ts';
import { SESSION_OPERATIONS } from './core/sessions.ts';
import { TENANT_MEMBER_OPERATIONS } from './core/tenant-members.ts';
import { WEBHOOK_OPERATIONS } from './core/webhooks.ts';
import { DMS_OPERATIONS } from './dms/operations.ts';
import { HISTORY_OPERATIONS } from './history.ts';
import type { OperationTable } from './operation.ts';
import { SEARCH_OPERATIONS } from './search.ts';

/** Every declared operation table, in the order the gateway matches their routes. */
export const OPERATION_TABLES: readonly OperationTable[] = [
  AUTH_OPERATIONS,
  SECOND_FACTOR_OPERATIONS,
  OIDC_OPERATIONS,
  SESSION_OPERATIONS,
  BPM_OPERATIONS,
  DMS_OPERATIONS,
  HISTORY_OPERATIONS,
  WEBHOOK_OPERATIONS,
  SEARCH_OPERATIONS,
  TENANT_MEMBER_OPERATIONS,
  ACCESS_TOKEN_OPERATIONS,
];
