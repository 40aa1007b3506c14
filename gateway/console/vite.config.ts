import { readdir, readFile, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/** Text worth compressing ahead, as the gateway would at start (gateway/src/console/files.ts). */
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.svg', '.txt']);
const MIN_BYTES = 1024;

/**
 * Writes beside each text file of dist/ larger than 1 KB its brotli (quality 11) and gzip (level 9)
 * forms, `<name>.br` and `<name>.gz`, which the gateway serves as they are: the dearest compression
 * runs once per build rather than at every start of every gateway.
 */
function precompress(): Plugin {
  let outDir = '';
  const brotli = promisify(brotliCompress);
  const gzipped = promisify(gzip);
  return {
    name: 'platform-precompress',
    apply: 'build',
    configResolved: (config) => void (outDir = join(config.root, config.build.outDir)),
    async closeBundle() {
      const entries = await readdir(outDir, { recursive: true, withFileTypes: true });
      const files = entries.filter((entry) => entry.isFile() && COMPRESSIBLE.has(extname(entry.name))).map((entry) => join(entry.parentPath, entry.name));
      await Promise.all(
        files.map(async (file) => {
          const body = await readFile(file);
          if (body.length <= MIN_BYTES) return;
          const [br, gz] = await Promise.all([
            brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
            gzipped(body, { level: 9 }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}

/**
 * The console's build: sources here, output in dist/, served by the gateway at /console/
 * (gateway/src/console). No CDN: every byte the page loads is in dist/, with its compressed forms.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // hashed names under assets/: the gateway serves them as immutable
    assetsDir: 'assets',
    sourcemap: false,
    target: 'es2022',
    // the budget is the first route's gzip size (350 KB), measured by bench/console-load.ts; the raw
    // size of the shell's chunk (about 470 KB, 136 KB gzip) is no warning
    chunkSizeWarningLimit: 700,
  },
  logLevel: 'warn',
});
