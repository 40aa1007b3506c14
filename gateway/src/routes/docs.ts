import type { OperationTable } from '@platform/contracts/operation.ts';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import { routerFor, type RouteGroup } from './route.ts';

const PAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '../openapi/page');
const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/swagger-ui.css'));

/** The files the reference page loads, all served from here (no CDN): swagger-ui-dist's and its starter. */
export const DOCS_ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': join(SWAGGER_UI_DIR, 'swagger-ui.css'),
  'swagger-ui-bundle.js': join(SWAGGER_UI_DIR, 'swagger-ui-bundle.js'),
  'favicon-32x32.png': join(SWAGGER_UI_DIR, 'favicon-32x32.png'),
  'reference.js': join(PAGE_DIR, 'reference.js'),
};

/** The page may load only what this origin serves; the document's "try it out" calls go to it too. */
const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const DOCS_ROUTES = {
  reference: {
    method: 'get',
    path: '/api/docs',
    doc: () => ({
      tag: 'docs',
      summary: 'This reference, as an interactive page',
      ok: {
        status: 200,
        schema: { type: 'string' },
        contentType: 'text/html',
        description: 'The page; its scripts and styles are served under /api/docs/assets.',
      },
    }),
  },
  document: {
    method: 'get',
    path: '/api/docs/openapi.json',
    doc: () => ({
      tag: 'docs',
      summary: 'This API document (OpenAPI 3.1)',
      ok: { status: 200, schema: { type: 'object' }, description: 'The document, generated from the route tables and the resource declarations.' },
    }),
  },
  asset: {
    method: 'get',
    path: '/api/docs/assets/:file',
    doc: () => ({
      tag: 'docs',
      summary: 'A script, style or icon of the reference page',
      pathParams: { file: { type: 'string', enum: Object.keys(DOCS_ASSETS) } },
      ok: { status: 200, schema: { type: 'string' }, contentType: '*/*', description: 'The file.' },
    }),
  },
} as const satisfies OperationTable;

/**
 * GET /api/docs/openapi.json: the API document (gateway/src/openapi, built once at start and handed
 * in as its JSON text); GET /api/docs: the interactive reference (Swagger UI) over it, whose scripts
 * and styles are served by GET /api/docs/assets/{file}. Public paths (http/path-category.ts).
 */
export function docsRoutes(documentJson: string): RouteGroup {
  const page = readFileSync(join(PAGE_DIR, 'reference.html'), 'utf8');
  return routerFor(DOCS_ROUTES, {
    reference: (_req, res) => {
      res.setHeader('Content-Security-Policy', PAGE_CSP);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Cache-Control', 'no-cache');
      res.type('html').send(page);
    },
    document: (_req, res) => {
      res.setHeader('Cache-Control', 'no-cache');
      res.type('json').send(documentJson);
    },
    asset: (req, res) => {
      const name = req.params.file ?? '';
      const file = Object.hasOwn(DOCS_ASSETS, name) ? DOCS_ASSETS[name] : undefined;
      if (!file) throw new DomainError('SVC-SYS-4001', 'path.notFound', { path: req.path.slice(0, 200) });
      const headers = { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'public, max-age=3600' };
      return new Promise<void>((resolve, reject) => res.sendFile(file, { headers }, (error) => (error ? reject(error) : resolve())));
    },
  });
}
