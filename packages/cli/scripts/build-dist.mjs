// `pnpm build` of the CLI: dist/main.js (what the launcher, the tests and the benchmarks run) as
// one bundle with its chunks, so starting `tandem` reads a few files instead of ~260 modules.
// Bundled: the CLI, @tandem/tui and @tandem/shared (from their TypeScript sources) and the npm
// packages the client side loads before its first screen (commander, zod, socket.io-client and its
// transports, marked); loading ~260 small ES modules one by one was about a third of the CPU a
// first screen took (resolution, file reads, compilation per module). Everything else stays a
// package import resolved as before: the server and the engine (@tandem/server, @tandem/core:
// loaded only by the commands that need them, and reading files beside their own modules), native
// and CommonJS packages that load files by computed names (node-pty, blessed), and every other
// dependency. The published package is bundled differently (scripts/bundle.mjs, `pnpm pack`).
import { readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { nodeBundleOptions } from './esbuild-node.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Loaded before the first screen of `tandem` and by `tandem run`: pure JavaScript, safe to bundle. */
const BUNDLED = new Set(['commander', 'zod', 'socket.io-client', 'marked']);
const external = [
  '@tandem/server',
  '@tandem/core',
  ...Object.keys(manifest.dependencies).filter((name) => !BUNDLED.has(name)),
  // ws's optional native speed-ups, required only when installed.
  'bufferutil',
  'utf-8-validate',
  ...builtinModules,
  ...builtinModules.map((name) => `node:${name}`),
];

const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
await build({
  // main: the `tandem` binary; index: the package's own exports.
  entryPoints: { main: join(root, 'src', 'main.ts'), index: join(root, 'src', 'index.ts') },
  outdir: dist,
  // Chunks beside main.js: a module that reads `../package.json` from import.meta.url finds the CLI's.
  chunkNames: 'chunk-[hash]',
  ...nodeBundleOptions(external),
  minify: true,
  sourcemap: 'linked',
});
