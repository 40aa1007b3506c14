import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '@platform/kit/errors/domain-error.ts';

/** A tenant's upload limits from its dms-account-config (docs/interface.md#files); an absent one is no limit. */
export interface TenantLimits {
  maxFileSize?: number;
  /** Lower-case MIME types; empty: any type. */
  allowedMimeTypes: readonly string[];
  storageQuotaBytes?: number;
}

/** A cap the upload stream checks while the bytes pass: more than `bytes` is `error`. */
export interface StreamCap {
  bytes: number;
  error: () => DomainError;
}

export const tooLarge = () => new DomainError('SVC-SYS-3001', 'upload.tooLarge');
export const typeNotAllowed = () => new DomainError('SVC-SYS-3002', 'upload.typeNotAllowed');
export const quotaExceeded = () => new DomainError('SVC-SYS-3007', 'upload.quotaExceeded');

/** The tenant's limits: its dms-account-config row, or none (no config: no tenant limit). */
export async function limitsOf(em: EntityManager, crProcessId: number): Promise<TenantLimits> {
  const [config] = await em.execute<{ max_file_size: string | null; allowed_mime_types: string | null; storage_quota_bytes: string | null }[]>(
    'select max_file_size, allowed_mime_types, storage_quota_bytes from dms.dms_account_config where cr_process_id = ? limit 1',
    [crProcessId],
  );
  return {
    ...(config?.max_file_size == null ? {} : { maxFileSize: Number(config.max_file_size) }),
    allowedMimeTypes: (config?.allowed_mime_types ?? '')
      .split(',')
      .map((type) => type.trim().toLowerCase())
      .filter((type) => type !== ''),
    ...(config?.storage_quota_bytes == null ? {} : { storageQuotaBytes: Number(config.storage_quota_bytes) }),
  };
}

/**
 * Bytes reserved by the tenant's unfinished resumable uploads: the declared length of each one not
 * yet past its expiry (dms.dms_tus_upload, docs/adr/0102-what-an-unfinished-resumable-upload.md).
 */
export async function reservedBytes(em: EntityManager, crProcessId: number): Promise<number> {
  const [reserved] = await em.execute<{ reserved: string }[]>(
    'select coalesce(sum(upload_length), 0) as reserved from dms.dms_tus_upload where cr_process_id = ? and expires_at > now()',
    [crProcessId],
  );
  return Number(reserved?.reserved ?? 0);
}

/** What the quota is judged against: the tenant's live files and the reservations of its unfinished resumable uploads. */
export async function storageUsed(em: EntityManager, crProcessId: number): Promise<number> {
  const [used] = await em.execute<{ used: string }[]>(
    'select (select coalesce(sum(file_size), 0) from dms.dms_file where cr_process_id = ? and not deleted) + ' +
      '(select coalesce(sum(upload_length), 0) from dms.dms_tus_upload where cr_process_id = ? and expires_at > now()) as used',
    [crProcessId, crProcessId],
  );
  return Number(used?.used ?? 0);
}

/**
 * The tenant's quota lock, a transaction advisory lock held to the commit: every write that adds to
 * what storageUsed sums (a file's row, a resumable upload's reservation) takes it before it sums,
 * so two at once never pass the quota together.
 */
export async function lockTenantQuota(em: EntityManager, crProcessId: number): Promise<void> {
  if (!em.isInTransaction()) throw new Error('the quota lock is taken inside the transaction that writes');
  await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`dms.storage-quota:${crProcessId}`]);
}

/**
 * The caps an upload of the tenant streams against: maxFileSize (413 SVC-SYS-3001), and what is
 * left of the quota now (413 SVC-SYS-3007) — an early answer only; the row's commit re-checks the
 * quota under the tenant's lock (assertQuota).
 */
export async function streamCaps(em: EntityManager, crProcessId: number): Promise<StreamCap[]> {
  const limits = await limitsOf(em, crProcessId);
  const caps: StreamCap[] = [];
  if (limits.maxFileSize !== undefined) caps.push({ bytes: limits.maxFileSize, error: tooLarge });
  if (limits.storageQuotaBytes !== undefined) {
    caps.push({ bytes: Math.max(0, limits.storageQuotaBytes - (await storageUsed(em, crProcessId))), error: quotaExceeded });
  }
  return caps;
}

/** A received file against the tenant's size and type limits: 413 SVC-SYS-3001, 415 SVC-SYS-3002 (the sniffed type is compared). */
export function assertFileFits(limits: TenantLimits, fileSize: number, mimeType: string): void {
  if (limits.maxFileSize !== undefined && fileSize > limits.maxFileSize) throw tooLarge();
  if (limits.allowedMimeTypes.length > 0 && !limits.allowedMimeTypes.includes(mimeType.toLowerCase())) throw typeNotAllowed();
}

/**
 * Inside the transaction that inserts the file's row (`em` in it), before the insert: takes the
 * tenant's quota lock (lockTenantQuota) and refuses with 413 SVC-SYS-3007 when the tenant's live
 * files, the reservations of its unfinished resumable uploads and this one would exceed
 * storageQuotaBytes. Uploads of one tenant commit one after the other, each summing what the ones
 * before it committed (READ COMMITTED: the sum is read after the lock is granted), so two at once
 * never pass the quota together. The lock is taken before the audit chain's, by every upload alike.
 */
export async function assertQuota(em: EntityManager, crProcessId: number, quota: number | undefined, fileSize: number): Promise<void> {
  if (quota === undefined) return;
  await lockTenantQuota(em, crProcessId);
  if ((await storageUsed(em, crProcessId)) + fileSize > quota) throw quotaExceeded();
}
