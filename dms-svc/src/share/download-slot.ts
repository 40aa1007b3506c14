import type { EntityManager } from '@mikro-orm/postgresql';
import { gone } from './open-link.ts';

/**
 * A link's downloads are counted by slots (docs/decisions.md "Share links: public access"): a slot is
 * taken in one conditional UPDATE before any byte is sent, so that however many downloads run at
 * once, at most maxDownloads hold one; a download that does not complete gives its slot back. So
 * downloadCount counts the completed downloads plus those under way, and never passes maxDownloads.
 * Neither changes the link's `version`: downloads are not edits, and an editor's PUT must not
 * become stale because someone downloaded.
 */
export async function takeSlot(em: EntityManager, linkId: number): Promise<void> {
  const taken = await em.execute<{ id: string }[]>(
    `update dms.dms_share_link set download_count = download_count + 1
      where id = ? and status and (expires_at is null or expires_at > now())
        and (max_downloads is null or download_count < max_downloads)
      returning id`,
    [linkId],
  );
  // another download took the last slot meanwhile, or the link changed: as if it had been so before
  if (taken.length === 0) throw gone();
}

/** Gives back the slot of a download that did not complete (in the caller's transaction, with its audit row). */
export async function giveSlotBack(em: EntityManager, linkId: number): Promise<void> {
  await em.execute('update dms.dms_share_link set download_count = download_count - 1 where id = ? and download_count > 0', [linkId]);
}
