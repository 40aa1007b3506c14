import { randomBytes } from 'node:crypto';
import { hashPassword } from '@platform/service-kit/auth/password.ts';
import { defineHooks, type ResourceHooks } from '@platform/service-kit/crud/runtime.ts';
import { appendAudit, auditActor } from '../../audit/append-audit.ts';
import { dmsShareLink } from '@platform/contracts/dms/dms-share-link.ts';
import { lockLiveFile } from './live-file.ts';
import { shareLinkReadLimit } from './share-link-read-limit.ts';

/** The public path of a share link (docs/interface.md#share-links). */
export function shareUrl(token: string): string {
  return `/api/dms-share-link/public/${token}`;
}

/**
 * dms-share-link: on create a token of 32 random bytes (base64url, 43 characters) and its url; an
 * update never changes them (read-only fields are ignored on write). A password is stored as a
 * bcrypt hash with the platform's rounds, and hasPassword follows it (cleared with it). Every
 * create, update and delete appends its SHARE_CREATE, SHARE_UPDATE or SHARE_DELETE audit row in the
 * same transaction: a write that fails leaves none, and none goes unrecorded. The details never
 * hold the token or the password. A link to a file the caller may not read (its category's
 * readRole) is, to that caller, not there (share-link-read-limit.ts).
 */
export function shareLinkHooks(bcryptRounds: number): ResourceHooks {
  return defineHooks(dmsShareLink, {
    readLimit: shareLinkReadLimit,
    async beforeWrite(values, _input, ctx, mode, current) {
      const crProcessId = current?.crProcessId ?? values.crProcessId;
      if (typeof values.fileId === 'number' && typeof crProcessId === 'number') await lockLiveFile(ctx, crProcessId, values.fileId);
      if (mode === 'create') {
        values.token = randomBytes(32).toString('base64url');
        values.url = shareUrl(values.token);
      }
      if (values.password === null) values.hasPassword = false;
      if (typeof values.password === 'string') {
        values.password = await hashPassword(values.password, bcryptRounds);
        values.hasPassword = true;
      }
    },
    async afterWrite(row, _input, ctx, mode, written) {
      const details =
        mode === 'create'
          ? { expiresAt: row.expiresAt?.toISOString() ?? null, maxDownloads: row.maxDownloads, hasPassword: row.hasPassword }
          : { changed: [...written].filter((name) => name !== 'version').sort() };
      await appendAudit(ctx.em, row.crProcessId, {
        action: mode === 'create' ? 'SHARE_CREATE' : 'SHARE_UPDATE',
        ...auditActor(ctx),
        shareLinkId: row.id,
        fileId: row.fileId,
        details,
      });
    },
    async beforeDelete(row, ctx) {
      await appendAudit(ctx.em, row.crProcessId, { action: 'SHARE_DELETE', ...auditActor(ctx), shareLinkId: row.id, fileId: row.fileId });
    },
  });
}
