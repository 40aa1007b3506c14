import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The console's build: sources here, output in dist/, served by the gateway at /console/
 * (gateway/src/console). No CDN: every byte the page loads is in dist/.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  plugins: [react()],
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
