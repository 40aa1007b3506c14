import type { RequestHandler } from 'express';

/**
 * The paths whose answers may carry a bearer capability: a share link's `token` and `url`
 * (dms-share-link's records, its list, validate-password's signed `downloadUrl`) and a signed
 * download URL (dms-file's records wherever they are answered, download-url). Whoever holds one
 * opens the file without a session, so no cache may keep it (docs/adr/0074-no-separate-download-origin.md).
 */
const CAPABILITY_PATHS = /^\/api\/(dms-file|dms-share-link)(\/|$)/;

/**
 * `Cache-Control: no-store` on every answer under the capability paths, set before the route runs:
 * errors included, and any route added there later. The file bytes' own no-store (dms-svc) is the
 * same value.
 */
export const noStoreCapabilities: RequestHandler = (req, res, next) => {
  if (CAPABILITY_PATHS.test(req.path)) res.setHeader('Cache-Control', 'no-store');
  next();
};
