// What both bundles of the CLI share (dist/main.js for this repository, bundle/ for `pnpm pack`):
// ES modules for Node 20, split into chunks, workspace packages taken from their TypeScript
// sources, the packages named in `external` (and their subpaths) left as imports.

/** esbuild options for a Node bundle that leaves `external` as imports. */
export function nodeBundleOptions(external) {
  return {
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Workspace packages resolve to their sources (their exports' `tandem-source` condition).
    conditions: ['tandem-source'],
    external: external.flatMap((name) => [name, `${name}/*`]),
    // Bundled CommonJS (commander, debug, ws) calls require; give the ES module chunks one.
    banner: { js: "import { createRequire as __tandemRequire } from 'node:module'; const require = __tandemRequire(import.meta.url);" },
    logLevel: 'warning',
  };
}
