import type { EntityManager } from '@mikro-orm/postgresql';
import { gone } from './open-link.ts';

/**
 * A link's downloads are counted by slots (docs/adr/0037-share-links-public-paths.md). A
 * download under way holds a slot: a row of dms.dms_share_download_slot that counts against
 * maxDownloads while its `lease_until` lies ahead, and that the download renews while its bytes flow
 * (slot-lease.ts). A completed download turns its slot into a counted download (download_count + 1),
 * a cut-off one deletes it, and one whose lease ran out (its dms-svc died or lost the database for a
 * whole lease) counts for nothing. So maxDownloads bounds completed downloads plus live leases, and
 * downloadCount is the completed ones. Neither changes the link's `version`: downloads are not
 * edits, and an editor's PUT must not become stale because someone downloaded.
 *
 * Every change of a link's slots that must see the others first (take, and completing a lapsed
 * lease) holds the link's row lock: under READ COMMITTED each later statement of the transaction
 * sees every slot committed before the lock was granted, so two takes never both count the same
 * free slot. (One statement would not do: a lock awaited inside it leaves its subqueries with the
 * snapshot taken before the wait.)
 */

/**
 * Takes a slot for a download of link `linkId` before any byte is sent, with a lease of
 * `leaseSeconds`; its id. 410 SVC-SYS-3006 when the link became unusable or every slot is taken.
 */
export async function takeSlot(em: EntityManager, linkId: number, leaseSeconds: number): Promise<number> {
  return em.transactional(async (tx) => {
    const [link] = await tx.execute<{ max_downloads: number | null; download_count: number }[]>(
      `select max_downloads, download_count from dms.dms_share_link
        where id = ? and status and (expires_at is null or expires_at > now())
        for update`,
      [linkId],
    );
    // the link changed meanwhile: as if it had been so before
    if (!link) throw gone();
    // lapsed leases count for nothing: their downloads are gone
    await tx.execute('delete from dms.dms_share_download_slot where share_link_id = ? and lease_until <= now()', [linkId]);
    const [slot] = await tx.execute<{ id: string }[]>(
      `insert into dms.dms_share_download_slot (share_link_id, lease_until)
       select ?, now() + make_interval(secs => ?)
        where ?::int is null
           or ?::int + (select count(*) from dms.dms_share_download_slot where share_link_id = ?) < ?::int
       returning id`,
      [linkId, leaseSeconds, link.max_downloads, link.download_count, linkId, link.max_downloads],
    );
    // another download took the last slot
    if (!slot) throw gone();
    return Number(slot.id);
  });
}

/**
 * Moves a live slot's lease `leaseSeconds` on from now; false when the slot is gone or its lease
 * already ran out (another download may have its place now: this one must stop).
 */
export async function renewSlot(em: EntityManager, slotId: number, leaseSeconds: number): Promise<boolean> {
  const renewed = await em.execute<{ id: string }[]>(
    `update dms.dms_share_download_slot set lease_until = now() + make_interval(secs => ?)
      where id = ? and lease_until > now()
      returning id`,
    [leaseSeconds, slotId],
  );
  return renewed.length > 0;
}

/**
 * A completed download: its slot becomes a counted download (in the caller's transaction, with its
 * audit row and event). A slot whose lease lapsed just before the end is counted only if a slot is
 * free now, so download_count plus the live leases never passes maxDownloads. The count after it
 * when it was counted (undefined when not).
 */
export async function completeSlot(em: EntityManager, linkId: number, slotId: number): Promise<number | undefined> {
  await em.execute('select id from dms.dms_share_link where id = ? for update', [linkId]);
  const [own] = await em.execute<{ live: boolean }[]>('delete from dms.dms_share_download_slot where id = ? returning lease_until > now() as live', [slotId]);
  const [counted] = await em.execute<{ download_count: number }[]>(
    `update dms.dms_share_link set download_count = download_count + 1
      where id = ?
        and (?::boolean or max_downloads is null
          or download_count + (select count(*) from dms.dms_share_download_slot where share_link_id = ? and lease_until > now()) < max_downloads)
      returning download_count`,
    [linkId, own?.live === true, linkId],
  );
  return counted === undefined ? undefined : Number(counted.download_count);
}

/** A download that did not complete gives its slot back (in the caller's transaction, with its audit row). */
export async function releaseSlot(em: EntityManager, slotId: number): Promise<void> {
  await em.execute('delete from dms.dms_share_download_slot where id = ?', [slotId]);
}
