import { dmsShareLink } from '@platform/contracts/dms/dms-share-link.ts';
import type { OperationTable } from '@platform/contracts/operation.ts';
import { clientIp } from '../http/context.ts';
import { sendLoginRefusal, type LoginOutcome } from '../limits/login-attempt.ts';
import type { LoginGuard } from '../limits/login-guard.ts';
import type { Forward } from '../relay/forward.ts';
import { routerFor, type RouteGroup } from './route.ts';

const SHARE_TOKEN = { token: { type: 'string', pattern: '^[A-Za-z0-9_-]+$', description: "The share link's token." } } as const;

/**
 * The public share-link paths (docs/interface.md#share-links, docs/interface.md#authentication): no session, on the
 * public rate-limit tier (http/path-category.ts), handed to dms-svc's HTTP server as the file bytes
 * are (the download through the relay, validate-password through the proxy; dms-svc judges the
 * link, the password and the signature). Registered
 * before the JSON body parser: dms-svc reads validate-password's small body itself. The proxy
 * hands on the client address this gateway judged (X-Forwarded-For, dms-file-bytes.ts), and the
 * gateway throttles wrong passwords per link and address with the login guard's mechanism: the sixth wrong one within 15 minutes is 429 with the rate-limit body (docs/interface.md#limits).
 */
export const DMS_SHARE_PUBLIC_ROUTES = {
  sharePublicDownload: {
    method: 'get',
    path: '/api/dms-share-link/public/:token',
    doc: () => ({
      tag: dmsShareLink.path,
      summary: 'Download a shared file (no session; HEAD too)',
      description:
        "The link's file as an attachment, with the download headers and ranges of signed URLs. A link with a password is 401 SVC-SYS-3005 " +
        'until validated: then the downloadUrl of validate-password, which adds token and expires (a changed one 403 SVC-SYS-3003, a past one 403 SVC-SYS-3004). ' +
        'An expired, passive, used-up (completed downloads plus those under way reach maxDownloads) or deleted-file link is 410 SVC-SYS-3006; an unknown token 404. ' +
        'A complete download counts one against maxDownloads (a slot is taken before streaming and given back if the download is cut off). Audited as SHARE_ACCESS.',
      pathParams: SHARE_TOKEN,
      query: {
        token: { type: 'string', description: 'The signature validate-password gave (links with a password).' },
        expires: { type: 'integer', description: 'Its expiry, Unix seconds.' },
      },
      ok: { status: 200, schema: { type: 'string', format: 'binary' }, contentType: '*/*', description: 'The bytes (206 for a range).' },
      alsoAnswers: { status: 206, description: 'The range asked for.' },
      errors: [401, 410],
    }),
  },
  sharePublicValidatePassword: {
    method: 'post',
    path: '/api/dms-share-link/public/:token/validate-password',
    doc: () => ({
      tag: dmsShareLink.path,
      summary: "Validate a share link's password (no session)",
      description:
        "A right password: 200 with a signed downloadUrl (the public path with token and expires) valid until DMS_URL_TTL_SECONDS from now or the link's expiry. " +
        'A wrong one: 403 with the error body of SVC-SYS-3005 and valid: false. The sixth wrong password for one link from one address within 15 minutes is 429. ' +
        'Audited as PASSWORD_OK or PASSWORD_FAIL. Unknown token 404; unusable link 410 SVC-SYS-3006.',
      pathParams: SHARE_TOKEN,
      body: { schema: { type: 'object', additionalProperties: false, properties: { password: { type: 'string' } }, required: ['password'] } },
      ok: {
        status: 200,
        schema: {
          type: 'object',
          additionalProperties: false,
          properties: {
            valid: { const: true },
            downloadUrl: { type: 'string', description: '/api/dms-share-link/public/{token}?token=...&expires=...' },
            expiresAt: { type: 'string', format: 'date-time' },
          },
          required: ['valid', 'downloadUrl', 'expiresAt'],
        },
        description: 'The password is right.',
      },
      errors: [410],
    }),
  },
} as const satisfies OperationTable;

/** validate-password's answer as the guard counts it: 403 a wrong password, 200 a right one, anything else nothing. */
function outcomeOf(status: number, finished: boolean): LoginOutcome {
  if (!finished) return 'other';
  if (status === 403) return 'wrong-password';
  return status === 200 ? 'success' : 'other';
}

export function dmsSharePublicRoutes(proxy: Forward, relay: Forward, guard: LoginGuard): RouteGroup {
  return routerFor(DMS_SHARE_PUBLIC_ROUTES, {
    sharePublicDownload: relay,
    sharePublicValidatePassword: async (req, res) => {
      const ip = clientIp(req);
      const attempt = await guard.admit((req.params.token ?? '').slice(0, 100), ip);
      if (attempt.refusal) return sendLoginRefusal(req, res, attempt.refusal);
      try {
        await proxy(req, res);
      } finally {
        await attempt.settle(outcomeOf(res.statusCode, res.writableFinished));
      }
    },
  });
}
