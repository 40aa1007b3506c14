import { withDb } from './db.ts';

/**
 * A share link's download_count once every download of it has settled
 * (docs/adr/0037-share-links-public-paths.md): a download is counted, or its slot given back, just after its last byte
 * is written, so a client may hold the whole file a moment before. While a live slot of the link
 * remains, a download is under way or settling; this waits (up to 5 s) until none does.
 */
export function settledDownloadCount(linkId: number): Promise<number> {
  return withDb(async (db) => {
    for (let i = 0; ; i++) {
      const { rows } = await db.query(
        `select download_count,
                (select count(*) from dms.dms_share_download_slot s where s.share_link_id = l.id and s.lease_until > now()) as under_way
           from dms.dms_share_link l where id = $1`,
        [linkId],
      );
      if (Number(rows[0].under_way) === 0 || i === 100) return Number(rows[0].download_count);
      await new Promise((r) => setTimeout(r, 50));
    }
  });
}
