import type { RequestHandler } from 'express';
import { ConfigError } from '@platform/kit/config/config-error.ts';

const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
/**
 * Response headers a page may read beyond the CORS-safelisted ones: the rate-limit headers, what
 * a download needs (file name, ranges, ETag), a record's ETag (docs/interface.md#conditional-requests)
 * the mark of a replayed create (docs/interface.md#idempotent-requests), and the resumable
 * upload's tus headers (docs/interface.md#files).
 */
const EXPOSED_HEADERS = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
  'Content-Disposition',
  'Content-Range',
  'Accept-Ranges',
  'ETag',
  'Idempotent-Replayed',
  'Location',
  'Tus-Resumable',
  'Tus-Version',
  'Tus-Extension',
  'Tus-Max-Size',
  'Upload-Offset',
  'Upload-Length',
  'Upload-Metadata',
  'Upload-Expires',
  'Upload-File-Id',
  'Upload-Duplicate-Of',
].join(', ');
/** How long a browser may reuse a preflight answer (Chromium caps it at 7200 s). */
const PREFLIGHT_MAX_AGE_SECONDS = '600';

/**
 * The entries of ALLOWED_ORIGINS, each an exact origin (`scheme://host[:port]`, no path, no
 * trailing slash, no wildcard: credentials are allowed, so `*` could not work anyway). Anything else
 * is a ConfigError naming it.
 */
export function parseOrigins(entries: readonly string[]): Set<string> {
  const origins = new Set<string>();
  for (const entry of entries) {
    let origin: string | undefined;
    try {
      const url = new URL(entry);
      if (url.protocol === 'http:' || url.protocol === 'https:') origin = url.origin;
    } catch {
      // reported below
    }
    if (origin !== entry) {
      throw new ConfigError(
        `ALLOWED_ORIGINS entry '${entry}' is not an origin (like https://app.example.com or http://localhost:3000, without a path or trailing slash)`,
      );
    }
    origins.add(origin);
  }
  return origins;
}

export interface CorsPolicy {
  /**
   * Decorates every response to an allowed origin, errors included, with
   * Access-Control-Allow-Origin (that origin) and Access-Control-Allow-Credentials: true; runs
   * first, so that even the IP filter's 403 is readable by the page.
   */
  headers: RequestHandler;
  /**
   * Answers a preflight (OPTIONS with Access-Control-Request-Method) from an allowed origin with 204,
   * right after the IP filter and before the API key, rate limit and JWT steps, which a preflight
   * (sent without credentials) could never pass.
   */
  preflight: RequestHandler;
}

/**
 * CORS from ALLOWED_ORIGINS (docs/interface.md#cors "Cross-origin rules", docs/interface.md#cors): exact
 * origins, credentials allowed, methods GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS, any request header (the
 * preflight's Access-Control-Request-Headers are reflected, as `*` does not apply to credentialed
 * requests). An unlisted origin gets no CORS header at all. `Vary: Origin` is on every response once
 * origins are configured, so no cache hands one origin's answer to another.
 */
export function corsPolicy(allowedOrigins: readonly string[]): CorsPolicy {
  const origins = parseOrigins(allowedOrigins);
  const allowedOrigin = (origin: string | undefined): origin is string => origin !== undefined && origins.has(origin);
  if (origins.size === 0) {
    const pass: RequestHandler = (_req, _res, next) => next();
    return { headers: pass, preflight: pass };
  }
  return {
    headers: (req, res, next) => {
      res.vary('Origin');
      const origin = req.headers.origin;
      if (allowedOrigin(origin)) {
        res.setHeader('Access-Control-Allow-Origin', origin);
        res.setHeader('Access-Control-Allow-Credentials', 'true');
        res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
      }
      next();
    },
    preflight: (req, res, next) => {
      if (req.method !== 'OPTIONS' || req.headers['access-control-request-method'] === undefined || !allowedOrigin(req.headers.origin)) {
        return next();
      }
      res.removeHeader('Access-Control-Expose-Headers');
      res.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
      const requested = req.headers['access-control-request-headers'];
      if (requested) res.setHeader('Access-Control-Allow-Headers', requested);
      res.vary('Access-Control-Request-Headers');
      res.setHeader('Access-Control-Max-Age', PREFLIGHT_MAX_AGE_SECONDS);
      res.setHeader('Content-Length', '0');
      res.status(204).end();
    },
  };
}
