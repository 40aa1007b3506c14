import type { IncomingMessage, ServerResponse } from 'node:http';
import { verifyPassword } from '@platform/service-kit/auth/password.ts';
import { translate } from '@platform/kit/i18n/messages.ts';
import { appendAudit } from '../audit/append-audit.ts';
import { languageOfRequest } from '../http/caller.ts';
import { onlyString, readJsonObject } from '../http/read-json.ts';
import { sendJson } from '../http/respond.ts';
import type { PublicShareDeps } from './deps.ts';
import { openLink } from './open-link.ts';
import { publicActor } from './public-request.ts';
import { scopedFork } from '@platform/service-kit/db/tenant-scope.ts';

/** bcrypt reads at most 72 bytes: a longer password is wrong, never compared by its prefix. */
const BCRYPT_MAX_BYTES = 72;

/**
 * POST /api/dms-share-link/public/{token}/validate-password `{password}` (docs/interface.md#share-links): 200
 * `{valid: true, downloadUrl, expiresAt}`, where downloadUrl is the link's public path signed with
 * DMS_URL_SECRET (DownloadSigner.signShare) until DMS_URL_TTL_SECONDS from now or the link's own
 * expiry, whichever is first; or 403 with the error body of SVC-SYS-3005 and `valid: false`. Unknown
 * and unusable links answer as the GET does (404, 410); a link without a password validates any.
 * Each judged password appends PASSWORD_OK or PASSWORD_FAIL. The gateway throttles wrong tries.
 */
export async function validatePassword(deps: PublicShareDeps, req: IncomingMessage, res: ServerResponse, token: string): Promise<void> {
  const password = onlyString(await readJsonObject(req, res, 4096), 'password');
  const em = scopedFork(deps.runtime.orm, { platform: 'public-share' });
  const link = await openLink(em, token);
  const valid =
    link.passwordHash === undefined ||
    (Buffer.byteLength(password, 'utf8') <= BCRYPT_MAX_BYTES && (await verifyPassword(password, link.passwordHash, deps.config.bcryptRounds)));
  await em.transactional((tx) =>
    appendAudit(tx, link.crProcessId, { action: valid ? 'PASSWORD_OK' : 'PASSWORD_FAIL', ...publicActor(req), shareLinkId: link.id, fileId: link.fileId }),
  );
  if (!valid) {
    const message = translate(languageOfRequest(req), 'share.passwordWrong');
    sendJson(res, 403, { status: 'ERROR', error_code: 'SVC-SYS-3005', message, valid: false });
    return;
  }
  const now = Math.floor(Date.now() / 1000);
  // signed over the password's hash too: a later password change (set, replace, clear) voids it
  const signed = deps.signer.signShare(
    token,
    Math.min(now + deps.config.dms.urlTtlSeconds, link.expiresAt ?? Number.MAX_SAFE_INTEGER),
    link.passwordHash ?? '',
  );
  sendJson(res, 200, { valid: true, downloadUrl: signed.url, expiresAt: signed.expiresAt });
}
