import type { Row } from '@platform/service-kit/db/entity-schema.ts';
import type { AccessToken } from '@platform/kit/gen/platform/core/v1/access_token.ts';

/** An access_token row as the API shows it: never its secret's hash; `active` is whether it may be used now. */
export function toAccessToken(row: Row, now = new Date()): AccessToken {
  const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : undefined);
  const expiresAt = row.expiresAt as Date;
  return {
    tokenId: row.tokenId as string,
    name: row.name as string,
    userCode: row.userCode as string,
    crProcessId: row.crProcessId as number,
    accountNo: row.accountNo as string,
    roles: [...(row.roles as string[])].sort(),
    createdAt: iso(row.createdAt) ?? '',
    expiresAt: iso(expiresAt) ?? '',
    revokedAt: iso(row.revokedAt),
    revokedBy: (row.revokedBy as string | null) ?? undefined,
    lastUsedAt: iso(row.lastUsedAt),
    lastUsedIp: (row.lastUsedIp as string | null) ?? undefined,
    active: row.revokedAt == null && expiresAt > now,
  };
}
