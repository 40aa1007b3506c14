import type { Request, RequestHandler, Response } from 'express';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import type { ConsoleFile } from './files.ts';
import type { ConsoleCsrf } from './csrf.ts';

/** reCAPTCHA v3's script, frames and calls: the one foreign origin, and only when the login checks captchas. */
const RECAPTCHA = ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'];

/**
 * The console page's policy: everything from this origin and nothing else (no inline script or
 * style element, no plugin, no framing of the console), with `blob:` and `data:` images and frames
 * for previews of the user's own files.
 */
export function consoleCsp(captcha: boolean): string {
  const foreign = captcha ? ` ${RECAPTCHA.join(' ')}` : '';
  return [
    "default-src 'none'",
    `script-src 'self'${foreign}`,
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${foreign}`,
    `frame-src 'self' blob:${foreign}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export interface ConsoleServing {
  /** The built files (files.ts); undefined when the console was not built. */
  files: Map<string, ConsoleFile> | undefined;
  /** GET /console/resources.json, as a file. */
  manifest: ConsoleFile;
  csrf: ConsoleCsrf;
  captcha: boolean;
}

/**
 * GET and HEAD of /console and everything under it (docs/adr/0083-the-console-built-headless-refine.md): the built
 * files from memory (hashed assets immutable for a year, the rest revalidated), the resource
 * manifest, and for any other path the app's index.html, whose router shows the page: with the
 * page's CSP, and the CSRF cookie when the browser holds no valid one. A missing asset is 404; the
 * console not built is 503. Other methods pass on (and end in 404).
 */
export function serveConsole({ files, manifest, csrf, captcha }: ConsoleServing): RequestHandler {
  const csp = consoleCsp(captcha);
  return (req, res, next) => {
    const path = req.path;
    if (path !== '/console' && !path.startsWith('/console/')) return next();
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (path === '/console') return void res.redirect(308, '/console/');
    const name = path.slice('/console/'.length);
    if (name === 'resources.json') return send(req, res, manifest);
    if (!files) return next(new DomainError('SVC-SYS-5002', 'service.unavailable'));
    const file = files.get(name);
    if (file && name !== 'index.html') return send(req, res, file);
    // a file that is not there (a stale asset name after a new build), rather than a page of the app
    if (name.startsWith('assets/') || /\.[a-z0-9]+$/i.test(name)) return next(new DomainError('SVC-SYS-4001', 'path.notFound', { path: path.slice(0, 200) }));
    const index = files.get('index.html')!;
    res.setHeader('Content-Security-Policy', csp);
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    if (!csrf.hasValidCookie(req)) res.append('Set-Cookie', csrf.cookie());
    send(req, res, index, 'no-store');
  };
}

function send(req: Request, res: Response, file: ConsoleFile, cacheControl?: string): void {
  res.setHeader('Content-Type', file.type);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', cacheControl ?? (file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache'));
  res.setHeader('ETag', file.etag);
  if (file.gzip) res.setHeader('Vary', 'Accept-Encoding');
  if (req.headers['if-none-match'] === file.etag && cacheControl !== 'no-store') return void res.status(304).end();
  const encoding = file.gzip ? req.acceptsEncodings('br', 'gzip', 'identity') : 'identity';
  const body = encoding === 'br' ? file.br! : encoding === 'gzip' ? file.gzip! : file.body;
  if (encoding === 'br' || encoding === 'gzip') res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', body.length);
  res.status(200).end(req.method === 'HEAD' ? undefined : body);
}
