// `pnpm build` of the CLI: dist/main.js (what the launcher, the tests and the benchmarks run) as
// one bundle with its chunks, so starting `tandem` reads a few files instead of ~1,000 modules.
// Bundled: every workspace package the CLI reaches (the CLI, @tandem/tui, @tandem/shared, and the
// server and the engine behind `tandem serve`, `tandem run` and the other commands that load them
// with import(): a chunk of their own, not read before a first screen) from their TypeScript
// sources, and the npm packages the client side loads before its first screen (commander, zod,
// socket.io-client and its transports, marked). Loading ~260 small ES modules one by one was about
// a third of the CPU a first screen took, and `tandem serve` loaded ~720 more (resolution, file
// reads, compilation per module: ~400 ms of CPU before it listened). Every other npm package stays
// an import resolved from packages/cli (which lists them all): native and CommonJS packages that
// load files by computed names (node-pty, blessed, pino's workers), and the rest. A bundled module
// that reads a file beside itself (`new URL('../../package.json', import.meta.url)`) still finds
// it: its import.meta.url is its source file's. The published package is bundled differently
// (scripts/bundle.mjs, `pnpm pack`).
import { readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { nodeBundleOptions } from './esbuild-node.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Loaded before the first screen of `tandem` and by `tandem run`: pure JavaScript, safe to bundle. */
const BUNDLED = new Set(['commander', 'zod', 'socket.io-client', 'marked']);
const external = [
  ...Object.keys(manifest.dependencies).filter((name) => !BUNDLED.has(name)),
  // ws's optional native speed-ups, required only when installed.
  'bufferutil',
  'utf-8-validate',
  ...builtinModules,
  ...builtinModules.map((name) => `node:${name}`),
];

const dist = join(root, 'dist');

/**
 * Another workspace package's module bundled into dist keeps its own location: `import.meta.url`
 * in it is its source file's URL, found from the chunk's (packages/<name>/src and dist sit at the
 * same depth, so paths relative to it reach the same files: @tandem/server's package.json for its
 * version, packages/web/dist for the viewer's page). The CLI's own modules need nothing: its
 * chunks sit where its sources' `../package.json` is the same file.
 */
const ownLocation = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /[\\/]packages[\\/][^\\/]+[\\/]src[\\/].*\.ts$/ }, async (args) => {
      if (args.path.startsWith(join(root, 'src'))) return undefined;
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const own = `new URL(${JSON.stringify(relative(dist, args.path).split('\\').join('/'))}, import.meta.url).href`;
      return { contents: text.replaceAll('import.meta.url', own), loader: 'ts' };
    });
  },
};

rmSync(dist, { recursive: true, force: true });
await build({
  // main: the `tandem` binary; index: the package's own exports.
  entryPoints: { main: join(root, 'src', 'main.ts'), index: join(root, 'src', 'index.ts') },
  outdir: dist,
  // Chunks beside main.js: a module that reads `../package.json` from import.meta.url finds the CLI's.
  chunkNames: 'chunk-[hash]',
  ...nodeBundleOptions(external),
  plugins: [ownLocation],
  minify: true,
  sourcemap: 'linked',
});
