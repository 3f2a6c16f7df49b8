import { defineConfig } from 'vite';

// The web viewer: one static page, built to dist/ and served by `tandem serve` at GET /.
// Workspace packages are bundled from their TypeScript sources (the tandem-source condition),
// so the page never depends on another package's dist being fresh.
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  resolve: { conditions: ['tandem-source', 'module', 'browser', 'development|production'] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // No inline polyfill script: the Content-Security-Policy allows scripts from the origin only.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    reportCompressedSize: false,
  },
});
