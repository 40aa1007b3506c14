import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** One built file of the console, held in memory with its compressed forms. */
export interface ConsoleFile {
  body: Buffer;
  gzip?: Buffer;
  br?: Buffer;
  type: string;
  etag: string;
  /** Under assets/: its name carries its content's hash, so it never changes. */
  immutable: boolean;
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Worth compressing: text, and large enough that the header costs less than it saves. */
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.svg', '.txt']);

/**
 * The console's built files (Vite's dist/), read once at start and compressed once (brotli and gzip),
 * keyed by their path under /console/ (`assets/index-3f9a.js`, `index.html`). Serving them is then a
 * map lookup: no file system on a request, no path to traverse. Undefined when the folder holds no
 * index.html (the console not built).
 */
export function loadConsoleFiles(dir: string): Map<string, ConsoleFile> | undefined {
  if (!existsSync(join(dir, 'index.html'))) return undefined;
  const files = new Map<string, ConsoleFile>();
  for (const path of walk(dir)) {
    const name = relative(dir, path).split(sep).join('/');
    if (name.startsWith('.')) continue;
    files.set(name, consoleFile(name, readFileSync(path)));
  }
  return files;
}

/** A file to serve under /console/`name`: its type by extension, its ETag, compressed when worth it. */
export function consoleFile(name: string, body: Buffer): ConsoleFile {
  const extension = extname(name);
  const compress = COMPRESSIBLE.has(extension) && body.length > 1024;
  return {
    body,
    gzip: compress ? gzipSync(body, { level: 9 }) : undefined,
    br: compress ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }) : undefined,
    type: TYPES[extension] ?? 'application/octet-stream',
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    immutable: name.startsWith('assets/'),
  };
}

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}
