import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Builds `tandem serve` from the TypeScript source into one ES module, for tests that start
 * many real server processes (a crash test kills and restarts it twenty times). Started through
 * tsx, every start compiles and resolves the whole source tree again, which costs about twice
 * the CPU of the server's own start; bundled once, each start only loads.
 *
 * It is the same source, compiled by the same esbuild tsx uses (tsx's own copy, so no second
 * version enters the workspace), with the `tandem-source` condition. Each module keeps its own
 * `import.meta.url` / `import.meta.dirname`, so files found relative to the source still are;
 * third-party packages stay outside the bundle, imported by their absolute path.
 */
const repoRoot = resolve(import.meta.dirname, '../../..');

interface EsbuildPluginBuild {
  onResolve(
    options: { filter: RegExp },
    callback: (args: { path: string; resolveDir: string; kind: string; pluginData?: unknown }) => Promise<unknown> | unknown,
  ): void;
  onLoad(options: { filter: RegExp }, callback: (args: { path: string }) => Promise<unknown>): void;
  resolve(path: string, options: { resolveDir: string; kind: string; pluginData?: unknown }): Promise<{ path: string; errors: unknown[] }>;
}

interface Esbuild {
  build(options: Record<string, unknown>): Promise<{ errors: unknown[] }>;
}

function loadEsbuild(): Esbuild {
  const fromTsx = createRequire(createRequire(join(repoRoot, 'package.json')).resolve('tsx/package.json'));
  return fromTsx('esbuild') as Esbuild;
}

/** Writes the bundle to `outDir/serve.mjs` and returns its path. */
export async function bundleServe(outDir: string): Promise<string> {
  const outfile = join(outDir, 'serve.mjs');
  await loadEsbuild().build({
    entryPoints: [join(repoRoot, 'packages/server/src/bin.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['tandem-source'],
    outfile,
    logLevel: 'error',
    plugins: [
      {
        name: 'tandem-source-as-is',
        setup(build: EsbuildPluginBuild) {
          // Third-party packages: resolved here, loaded at run time from where they are installed.
          build.onResolve({ filter: /^[^./]/ }, async (args) => {
            if (args.pluginData === 'inner' || args.path.startsWith('@tandem/')) return undefined;
            if (args.path.startsWith('node:')) return { path: args.path, external: true };
            const found = await build.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, pluginData: 'inner' });
            if (found.errors.length > 0) return { errors: found.errors };
            return { path: found.path.startsWith('/') ? pathToFileURL(found.path).href : args.path, external: true };
          });
          // Each source module keeps its own location.
          build.onLoad({ filter: /\/packages\/[^/]+\/src\/.*\.ts$/ }, async (args) => {
            const source = await readFile(args.path, 'utf8');
            const contents = source
              .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
              .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)))
              .replaceAll('import.meta.filename', JSON.stringify(args.path));
            return { contents, loader: 'ts', resolveDir: dirname(args.path) };
          });
        },
      },
    ],
  });
  return outfile;
}
