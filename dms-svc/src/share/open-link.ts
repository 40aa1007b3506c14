import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '@platform/kit/errors/domain-error.ts';

/** A share link that may be used now, with what its file's download sends. */
export interface OpenLink {
  id: number;
  crProcessId: number;
  /** The link's version (downloads do not change it). */
  version: number;
  fileId: number;
  token: string;
  /** The bcrypt hash, when the link has a password. */
  passwordHash: string | undefined;
  /** Unix seconds, when the link expires. */
  expiresAt: number | undefined;
  file: { storedFileName: string; originalFileName: string; mimeType: string; checksum: string };
}

// 32 random bytes are 43 characters; the column holds 64
const TOKEN = /^[A-Za-z0-9_-]{1,64}$/;

/** 410 SVC-SYS-3006 (docs/interface.md#files): expired, passive, used up, or its file deleted. */
export const gone = () => new DomainError('SVC-SYS-3006', 'share.gone');

/**
 * The share link of a public path's `token` (docs/interface.md#share-links): unknown is 404 SVC-SYS-4001; expired,
 * passive (status false), exhausted (downloadCount = maxDownloads, or the slots left all held by
 * downloads under way: download-slot.ts) or with a deleted or missing file is 410 SVC-SYS-3006.
 * Links are found by token alone, across tenants (the token is unique); the file must be of the
 * link's tenant.
 */
export async function openLink(em: EntityManager, token: string): Promise<OpenLink> {
  const notFound = () => new DomainError('SVC-SYS-4001', 'record.notFound', { resource: 'dms-share-link' });
  if (!TOKEN.test(token)) throw notFound();
  const [row] = await em.execute<Record<string, unknown>[]>(
    `select l.id, l.cr_process_id, l.version, l.file_id, l.password, l.has_password, l.status,
            l.expires_at <= now() as expired, extract(epoch from l.expires_at) as expires_epoch,
            l.max_downloads is not null
              and l.download_count + (select count(*) from dms.dms_share_download_slot s
                                       where s.share_link_id = l.id and s.lease_until > now()) >= l.max_downloads as exhausted,
            f.id is null or f.deleted as file_gone,
            f.stored_file_name, f.original_file_name, f.mime_type, f.checksum
       from dms.dms_share_link l
       left join dms.dms_file f on f.id = l.file_id and f.cr_process_id = l.cr_process_id
      where l.token = ?`,
    [token],
  );
  if (!row) throw notFound();
  if (row.status !== true || row.expired === true || row.exhausted === true || row.file_gone === true) throw gone();
  return {
    id: Number(row.id),
    crProcessId: Number(row.cr_process_id),
    version: Number(row.version),
    fileId: Number(row.file_id),
    token,
    passwordHash: row.has_password === true && typeof row.password === 'string' ? row.password : undefined,
    expiresAt: row.expires_epoch === null || row.expires_epoch === undefined ? undefined : Math.floor(Number(row.expires_epoch)),
    file: {
      storedFileName: String(row.stored_file_name),
      originalFileName: String(row.original_file_name),
      mimeType: String(row.mime_type),
      checksum: String(row.checksum),
    },
  };
}
