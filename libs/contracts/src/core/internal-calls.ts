import { SessionServiceService } from '@platform/kit/gen/platform/core/v1/session.ts';
import type { OperationRpc } from '../operation.ts';

/**
 * The calls the gateway makes of its own accord, not for a route: each with its service and retry
 * class, declared here as the routes' RPCs are (operations.ts), so that the retry policy follows
 * from the declaration.
 * - `checkSession`: whether a token's session is live, before an answer the gateway gives itself
 *   on a JWT path (docs/adr/0038-where-a-token-s-session-is-checked.md); it only reads.
 * - `recordSessionsSeen`: when sessions were last served (gateway/src/auth/sessions-seen.ts); it writes.
 */
export const INTERNAL_CALLS = {
  checkSession: { service: 'core', method: SessionServiceService.checkSession, retry: 'read' },
  recordSessionsSeen: { service: 'core', method: SessionServiceService.recordSessionsSeen, retry: 'write' },
} as const satisfies Readonly<Record<string, OperationRpc<never, unknown>>>;
