import type { Forward } from '../relay/forward.ts';
import { routerFor, type RouteGroup, type RouteTable } from './route.ts';

/**
 * The routes whose bodies are file bytes (docs/interface.md#files): streamed both ways to
 * dms-svc's HTTP server after the filter chain, and registered before the JSON body parser so that
 * nothing here reads them. The upload is a JWT path (the gateway checks the token as for every
 * call, and dms-svc proves it again itself); the download is a signed URL (middleware/paths.ts).
 * GET routes answer HEAD too. X-Forwarded-For carries exactly one address: the client's as this
 * gateway proved it.
 */
export const DMS_FILE_BYTE_ROUTES = {
  uploadFile: { method: 'post', path: '/api/dms-file/upload' },
  downloadFile: { method: 'get', path: '/api/dms-file/download/:id' },
} as const satisfies RouteTable;

/** The file byte routes: the upload through `proxy` (relay/dms-proxy.ts), the download through `relay` (relay/download-relay.ts). */
export function dmsFileByteRoutes(proxy: Forward, relay: Forward): RouteGroup {
  return routerFor(DMS_FILE_BYTE_ROUTES, { uploadFile: proxy, downloadFile: relay });
}
