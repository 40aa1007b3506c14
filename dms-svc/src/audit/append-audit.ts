import type { EntityManager } from '@mikro-orm/postgresql';
import { actorOf, type CallContext } from '@platform/service-kit/auth/caller.ts';
import { DmsAuditLogEntity } from '../db.ts';
import type { AuditAction } from '@platform/contracts/dms/dms-audit-log.ts';
import { auditHash, GENESIS_HASH } from './audit-hash.ts';

/** One audited action (docs/interface.md#retention-and-audit); `details` is stored as JSON text. */
export interface AuditEntry {
  action: AuditAction;
  userCode: string;
  fileId?: number | null;
  shareLinkId?: number | null;
  ipAddress?: string | null;
  userAgent?: string | null;
  details?: Record<string, unknown>;
}

/**
 * Who an action over gRPC is audited as: the caller's userCode, and the client's address and
 * User-Agent as the gateway judged them and handed them on in the call's metadata.
 */
export function auditActor(ctx: CallContext): Pick<AuditEntry, 'userCode' | 'ipAddress' | 'userAgent'> {
  return { userCode: actorOf(ctx), ipAddress: ctx.client?.ipAddress ?? null, userAgent: ctx.client?.userAgent ?? null };
}

/**
 * Appends one dms-audit-log row to tenant `crProcessId`'s hash chain, inside the caller's
 * transaction (`em` must be in one): the row commits or rolls back with the action it records.
 *
 * Race-free: a transaction-scoped advisory lock on the tenant's chain is held from reading the
 * chain's head to the commit, so concurrent appends of one tenant queue up and each links to the
 * one committed before it (READ COMMITTED: the head is read after the lock is granted, with a fresh
 * snapshot). Ids come from the sequence while the lock is held, so id order is chain order. Other
 * tenants' appends never wait (two tenants whose lock keys collide merely queue).
 *
 * @example
 * await appendAudit(ctx.em, row.crProcessId, { action: 'SHARE_CREATE', ...auditActor(ctx), shareLinkId: row.id, fileId: row.fileId });
 */
export async function appendAudit(em: EntityManager, crProcessId: number, entry: AuditEntry): Promise<void> {
  if (!em.isInTransaction()) throw new Error('appendAudit runs inside the transaction of the action it records');
  await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`dms.audit-chain:${crProcessId}`]);
  const [head] = await em.execute<{ hash: string }[]>('select hash from dms.dms_audit_log where cr_process_id = ? order by id desc limit 1', [crProcessId]);
  const [next] = await em.execute<{ id: string }[]>(`select nextval(pg_get_serial_sequence('dms.dms_audit_log', 'id')) as id`);
  const now = new Date();
  const content = {
    id: Number(next?.id),
    crProcessId,
    action: entry.action,
    fileId: entry.fileId ?? null,
    shareLinkId: entry.shareLinkId ?? null,
    userCode: entry.userCode,
    ipAddress: entry.ipAddress ?? null,
    userAgent: entry.userAgent ?? null,
    details: entry.details === undefined ? null : JSON.stringify(entry.details),
    createdAt: now,
  };
  const previousHash = head?.hash ?? GENESIS_HASH;
  em.create(DmsAuditLogEntity, {
    ...content,
    previousHash,
    hash: auditHash(previousHash, content),
    version: 0,
    status: true,
    updatedAt: now,
    createdBy: entry.userCode,
    updatedBy: entry.userCode,
  });
  await em.flush();
}
