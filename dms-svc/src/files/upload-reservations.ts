import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import { lockTenantQuota, quotaExceeded, storageUsed } from './tenant-limits.ts';

/** Who holds an upload: the user that created it, in the tenant it worked in. */
export interface UploadOwner {
  user: string;
  tenant: string;
}

/** One resumable upload's claim, made at its creation. */
export interface Reservation {
  id: string;
  /** The tenant it uploads to, whose quota the length is reserved against. */
  crProcessId: number;
  owner: UploadOwner;
  length: number;
  /** How long the reservation lasts: the upload's own expiry (DMS_TUS_EXPIRY_SECONDS). */
  expirySeconds: number;
  /** The owner's limit of open uploads (DMS_TUS_MAX_OPEN_UPLOADS). */
  maxOpen: number;
  /** The tenant's storageQuotaBytes; undefined: none. */
  quota: number | undefined;
}

/** The refusal of a creation beyond the owner's limit of open uploads: 413 SVC-SYS-3007, a quota of its own. */
export const tooManyOpen = (limit: number) => new DomainError('SVC-SYS-3007', 'tus.tooManyOpen', { limit: String(limit) });

/**
 * Reserves a resumable upload inside `em`'s transaction, before tus creates it
 * (docs/adr/0102-what-an-unfinished-resumable-upload.md): under the owner's lock, its open (unexpired) uploads must be fewer
 * than `maxOpen` (else 413 SVC-SYS-3007 `tus.tooManyOpen`); under the tenant's quota lock — the one
 * every stored file's transaction takes — the tenant's live files, its other reservations and this
 * length must fit the quota (else 413 SVC-SYS-3007). Then the row is written. Both sums are read
 * after their lock is granted, so two creations at once never pass a limit that fits one.
 */
export async function reserveUpload(em: EntityManager, reservation: Reservation): Promise<void> {
  if (!em.isInTransaction()) throw new Error('a reservation is written inside a transaction');
  const { owner } = reservation;
  await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`dms.tus-open:${owner.tenant}:${owner.user}`]);
  const [open] = await em.execute<{ open: string }[]>(
    'select count(*) as open from dms.dms_tus_upload where owner_user = ? and owner_tenant = ? and expires_at > now()',
    [owner.user, owner.tenant],
  );
  if (Number(open?.open ?? 0) >= reservation.maxOpen) throw tooManyOpen(reservation.maxOpen);
  if (reservation.quota !== undefined) {
    await lockTenantQuota(em, reservation.crProcessId);
    if ((await storageUsed(em, reservation.crProcessId)) + reservation.length > reservation.quota) throw quotaExceeded();
  }
  await em.execute(
    'insert into dms.dms_tus_upload (id, cr_process_id, owner_user, owner_tenant, upload_length, expires_at) ' +
      `values (?, ?, ?, ?, ?, now() + make_interval(secs => ?))`,
    [reservation.id, reservation.crProcessId, owner.user, owner.tenant, reservation.length, reservation.expirySeconds],
  );
}

/** Ends an upload's reservation (it became a file, was terminated, refused or swept); nothing when there is none. */
export async function releaseUpload(em: EntityManager, id: string): Promise<void> {
  await em.execute('delete from dms.dms_tus_upload where id = ?', [id]);
}

/** Deletes the reservations past their expiry (their uploads are swept beside them); how many. */
export async function releaseExpired(em: EntityManager): Promise<number> {
  const gone = await em.execute<{ id: string }[]>('delete from dms.dms_tus_upload where expires_at <= now() returning id');
  return gone.length;
}
