import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

/**
 * The operator console: built into dist/console (after `nest build`, which empties dist/) and
 * served by the service itself at /console. Hashed file names under assets/ are cached for a
 * year; index.html is not cached (src/app.setup.ts sets the headers).
 */
export default defineConfig({
  root: here,
  base: '/console/',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 200,
  },
  server: { proxy: { '^/(messages|deliveries|destinations|docs-json)': 'http://127.0.0.1:3000' } },
});
