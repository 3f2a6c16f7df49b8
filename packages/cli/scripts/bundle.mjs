// `pnpm pack` in packages/cli runs this first (prepack): one installable package without the
// monorepo. The workspace packages (@tandem/server, tools, assistant-tools, core, ai, tui,
// shared) are bundled from their TypeScript sources into bundle/lib; every npm package stays a
// dependency (package.json lists them all; a test keeps the list whole), node-pty builds from
// source on install as usual; the web viewer's built page goes to web/. bin is bundle/tandem.js
// (publishConfig.bin).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { nodeBundleOptions } from './esbuild-node.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const bundleDir = join(root, 'bundle');
const webDir = join(root, 'web');

rmSync(bundleDir, { recursive: true, force: true });
rmSync(webDir, { recursive: true, force: true });

const external = [...Object.keys(manifest.dependencies), ...builtinModules, ...builtinModules.map((name) => `node:${name}`)];
await build({
  entryPoints: { main: join(root, 'src', 'main.ts') },
  outdir: join(bundleDir, 'lib'),
  ...nodeBundleOptions(external),
  sourcemap: false,
});
// Modules read package.json beside them (`../package.json` from bundle/lib for the CLI's
// version, `../../package.json` for the server's): both land on a file with the version.
writeFileSync(join(bundleDir, 'package.json'), `${JSON.stringify({ type: 'module', version: manifest.version }, null, 2)}\n`);
writeFileSync(
  join(bundleDir, 'tandem.js'),
  `#!/usr/bin/env node
// The installed \`tandem\`: the web viewer's page is in ../web (set TANDEM_WEB_DIR to serve another).
import { fileURLToPath } from 'node:url';
process.env.TANDEM_WEB_DIR ??= fileURLToPath(new URL('../web/', import.meta.url));
await import('./lib/main.js');
`,
  { mode: 0o755 },
);

// The web viewer: built by its own package (vite), copied in.
const webPackage = join(root, '..', 'web');
const webDist = join(webPackage, 'dist');
execFileSync('pnpm', ['run', 'build'], { cwd: webPackage, stdio: 'inherit' });
if (!existsSync(join(webDist, 'index.html'))) throw new Error(`the web viewer did not build: no ${join(webDist, 'index.html')}`);
mkdirSync(webDir, { recursive: true });
cpSync(webDist, webDir, { recursive: true });
console.log(`bundled @tandem/cli ${manifest.version} into ${bundleDir} and the web viewer into ${webDir}`);
