import type { IncomingMessage, ServerResponse } from 'node:http';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import { recordEvent } from '@platform/service-kit/events/outbox.ts';
import { appendAudit } from '../audit/append-audit.ts';
import { sendFile } from '../files/send-file.ts';
import type { PublicShareDeps } from './deps.ts';
import { completeSlot, releaseSlot, takeSlot } from './download-slot.ts';
import { openLink } from './open-link.ts';
import { publicActor } from './public-request.ts';
import { holdSlotLease } from './slot-lease.ts';
import { scopedFork } from '@platform/service-kit/db/tenant-scope.ts';

/**
 * GET|HEAD /api/dms-share-link/public/{token} (docs/interface.md#share-links): the link's file as a download
 * (attachment; ranges, ETag and the other download headers as for signed URLs), no session needed.
 * A link with a password answers 401 SVC-SYS-3005 unless the request carries the signature
 * validate-password gave (`token`, `expires`; a changed one 403 SVC-SYS-3003, a past one 3004).
 *
 * A GET takes a download slot before the first byte (download-slot.ts) and renews its lease while
 * the bytes flow (slot-lease.ts); the slot becomes a counted download only when the whole response
 * was written: a cut-off one, or a 416, gives it back, and one whose dms-svc died lapses with its
 * lease. Each streamed GET appends one SHARE_ACCESS row (docs/interface.md#retention-and-audit) with `complete`, and
 * writes the link's `dms-share-link.accessed` event (its changes: downloadCount when the download
 * was counted) in the same transaction. HEAD sends the headers and counts nothing.
 */
export async function publicDownload(deps: PublicShareDeps, req: IncomingMessage, res: ServerResponse, token: string, query: URLSearchParams): Promise<void> {
  const em = scopedFork(deps.runtime.orm, { platform: 'public-share' });
  const link = await openLink(em, token);
  if (link.passwordHash !== undefined && !deps.signer.verifyShare(token, link.passwordHash, query))
    throw new DomainError('SVC-SYS-3005', 'share.passwordRequired');
  const file = { ...link.file, inline: false };
  if (req.method === 'HEAD') {
    await sendFile(req, res, deps.storage, file);
    return;
  }
  const leaseSeconds = deps.config.dms.shareLeaseSeconds;
  const slotId = await takeSlot(em, link.id, leaseSeconds);
  // the slot lapsed under this download (another may hold it now): it stops here, cut off
  const lease = holdSlotLease(deps.runtime.orm, slotId, leaseSeconds, deps.runtime.log, () => res.destroy(new Error('share download slot lapsed')));
  const settle = (complete: boolean, status: number | undefined) =>
    em.transactional(async (tx) => {
      const count = complete ? await completeSlot(tx, link.id, slotId) : undefined;
      if (!complete) await releaseSlot(tx, slotId);
      if (status === 416) return;
      await recordEvent(tx, {
        type: 'dms-share-link.accessed',
        crProcessId: link.crProcessId,
        key: link.id,
        version: link.version,
        actor: 'anonymous',
        changes: count === undefined ? {} : { downloadCount: { from: count - 1, to: count } },
      });
      await appendAudit(tx, link.crProcessId, {
        action: 'SHARE_ACCESS',
        ...publicActor(req),
        shareLinkId: link.id,
        fileId: link.fileId,
        details: {
          complete,
          ...(status === undefined ? {} : { status }),
          ...(req.headers.range === undefined ? {} : { range: req.headers.range.slice(0, 100) }),
        },
      });
    });
  let status: number;
  try {
    status = await sendFile(req, res, deps.storage, file);
  } catch (error) {
    lease.stop();
    await settle(false, undefined);
    // the client went away midway: there is no one to answer, and nothing failed here
    if (res.headersSent) {
      res.destroy();
      return;
    }
    throw error;
  }
  lease.stop();
  await settle(status !== 416, status);
}
