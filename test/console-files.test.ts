/**
 * The console's files as the gateway holds them (docs/adr/0083-the-console-built-headless-refine.md): compressed once,
 * by the build, which writes `<name>.br` and `<name>.gz` beside each text file of dist/; the gateway
 * serves those forms as they are and compresses at start only what the build left alone.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import test from 'ava';
import { loadConsoleFiles } from '../gateway/src/console/files.ts';
import { CONSOLE_DIST } from '../scripts/lib/console-build.ts';

/** A text of `bytes` bytes that compresses well, as a bundle does. */
const text = (bytes: number, word = 'console '): Buffer => Buffer.from(word.repeat(Math.ceil(bytes / word.length)).slice(0, bytes));

function folder(files: Record<string, Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'console-files-'));
  for (const [name, body] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), body);
  }
  return dir;
}

test('a file with the .br and .gz the build wrote beside it is served with those very bytes, and they are no files of their own', (t) => {
  const script = text(4096);
  // compressed unlike the gateway would (quality 1, level 1): what it serves must be these bytes
  const br = brotliCompressSync(script, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } });
  const gz = gzipSync(script, { level: 1 });
  const dir = folder({ 'index.html': text(2048, '<p>x</p>'), 'assets/app-1a2b.js': script, 'assets/app-1a2b.js.br': br, 'assets/app-1a2b.js.gz': gz });
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const files = loadConsoleFiles(dir);
  const app = files?.get('assets/app-1a2b.js');
  t.deepEqual(app?.body, script);
  t.deepEqual(app?.br, br);
  t.deepEqual(app?.gzip, gz);
  t.deepEqual([...(files?.keys() ?? [])].sort(), ['assets/app-1a2b.js', 'index.html']);
});

test('a text file over 1 KB without compressed forms beside it is compressed at load; a small one and an image are not', (t) => {
  const page = text(2048, '<p>x</p>');
  const dir = folder({ 'index.html': page, 'robots.txt': text(100), 'logo.png': text(4096) });
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const files = loadConsoleFiles(dir);
  const index = files?.get('index.html');
  t.deepEqual(brotliDecompressSync(index?.br ?? Buffer.alloc(0)), page);
  t.deepEqual(gunzipSync(index?.gzip ?? Buffer.alloc(0)), page);
  t.is(files?.get('robots.txt')?.br, undefined);
  t.is(files?.get('logo.png')?.br, undefined);
});

test('a .gz or .br that is not the compressed form of a file beside it is a file of its own', (t) => {
  const archive = gzipSync(text(4096));
  const dir = folder({ 'index.html': text(2048, '<p>x</p>'), 'exports/all.json.gz': archive });
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  t.deepEqual(loadConsoleFiles(dir)?.get('exports/all.json.gz')?.body, archive);
});

test('the console build wrote a .br and a .gz beside every text file of dist/ over 1 KB, each decompressing to it', (t) => {
  const texts = readdirSync(CONSOLE_DIST, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && ['.html', '.js', '.css', '.json', '.svg', '.txt'].includes(extname(entry.name)))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => statSync(file).size > 1024);
  t.true(texts.length > 3, 'dist/ holds the built scripts');
  for (const file of texts) {
    const body = readFileSync(file);
    t.deepEqual(brotliDecompressSync(readFileSync(`${file}.br`)), body, file);
    t.deepEqual(gunzipSync(readFileSync(`${file}.gz`)), body, file);
  }
});
