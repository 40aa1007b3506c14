import { createHash } from 'node:crypto';

/** The previousHash of a tenant's first audit row. */
export const GENESIS_HASH = '0'.repeat(64);

/** What a dms-audit-log row's hash covers: every column but the bookkeeping ones (version, status, updatedAt, updatedBy). */
export interface AuditContent {
  id: number;
  crProcessId: number;
  action: string;
  fileId: number | null;
  shareLinkId: number | null;
  userCode: string;
  ipAddress: string | null;
  userAgent: string | null;
  details: string | null;
  createdAt: Date;
}

/**
 * The hex SHA-256 of an audit row: over its previous row's hash and its canonical content, a JSON
 * array of the content's values in a fixed order (createdAt in ISO 8601 UTC, absent values null).
 *
 * @example
 * auditHash(GENESIS_HASH, { id: 1, crProcessId: 7, action: 'SHARE_CREATE', ..., createdAt: new Date() }) // '3f1c…' (64 hex)
 */
export function auditHash(previousHash: string, row: AuditContent): string {
  const canonical = JSON.stringify([
    row.id,
    row.crProcessId,
    row.action,
    row.fileId,
    row.shareLinkId,
    row.userCode,
    row.ipAddress,
    row.userAgent,
    row.details,
    row.createdAt.toISOString(),
  ]);
  return createHash('sha256').update(previousHash).update('\n').update(canonical).digest('hex');
}
