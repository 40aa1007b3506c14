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

/** The compressed forms the console's build writes beside a file (gateway/console/vite.config.ts). */
const PRECOMPRESSED = ['.br', '.gz'] as const;

/**
 * The console's built files (Vite's dist/), read once at start, keyed by their path under /console/
 * (`assets/index-3f9a.js`, `index.html`). Serving them is then a map lookup: no file system on a
 * request, no path to traverse. A file's compressed forms are the `<name>.br` and `<name>.gz` the
 * build wrote beside it, read as they are (compressing at quality 11 here took seconds of every
 * start); a file without them is compressed here. Undefined when the folder holds no index.html
 * (the console not built).
 */
export function loadConsoleFiles(dir: string): Map<string, ConsoleFile> | undefined {
  if (!existsSync(join(dir, 'index.html'))) return undefined;
  const paths = new Set(walk(dir));
  const files = new Map<string, ConsoleFile>();
  for (const path of paths) {
    const name = relative(dir, path).split(sep).join('/');
    if (name.startsWith('.')) continue;
    // a compressed form of another file is served as that file, never under its own name
    if (PRECOMPRESSED.some((suffix) => path.endsWith(suffix) && paths.has(path.slice(0, -suffix.length)))) continue;
    const body = readFileSync(path);
    const compressed = paths.has(`${path}.br`) && paths.has(`${path}.gz`) ? { br: readFileSync(`${path}.br`), gzip: readFileSync(`${path}.gz`) } : undefined;
    files.set(name, consoleFile(name, body, compressed));
  }
  return files;
}

/**
 * A file to serve under /console/`name`: its type by extension, its ETag, and its compressed forms:
 * `compressed` when given, else made here when worth it (brotli at quality 5: within a few percent of
 * 11 for a fraction of the time, since this runs at start).
 */
export function consoleFile(name: string, body: Buffer, compressed?: { br: Buffer; gzip: Buffer }): ConsoleFile {
  const extension = extname(name);
  const compress = compressed === undefined && COMPRESSIBLE.has(extension) && body.length > 1024;
  return {
    body,
    gzip: compressed?.gzip ?? (compress ? gzipSync(body, { level: 9 }) : undefined),
    br:
      compressed?.br ??
      (compress ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }) : undefined),
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
