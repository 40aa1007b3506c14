import type { Row } from '@platform/service-kit/db/entity-schema.ts';
import type { Session } from '@platform/kit/gen/platform/core/v1/session.ts';

/** Open: not ended and not past expiresAt (docs/interface.md#sessions-and-logs). */
function isOpen(row: Row, now = new Date()): boolean {
  return row.active === true && (row.expiresAt as Date) > now;
}

/** A session_log row as the API shows it: `active` is whether it is open now. */
export function toSession(row: Row): Session {
  const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : undefined);
  return {
    sessionId: row.sessionId as string,
    userCode: row.userCode as string,
    userProcessId: row.userProcessId as number,
    accountNo: row.accountNo as string,
    crProcessId: row.crProcessId as number,
    ipAddress: (row.ipAddress as string | null) ?? undefined,
    userAgent: (row.userAgent as string | null) ?? undefined,
    projectCode: (row.projectCode as string | null) ?? undefined,
    loginAt: iso(row.loginAt) ?? '',
    lastSeenAt: iso(row.lastSeenAt) ?? '',
    expiresAt: iso(row.expiresAt) ?? '',
    logoutAt: iso(row.logoutAt),
    active: isOpen(row),
  };
}
