import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Rolldown } from 'vite';

export interface BuiltPage {
  /** The directory to serve (index.html, assets/). */
  dir: string;
  /** Every module bundled into the page's scripts. */
  moduleIds: string[];
}

let built: Promise<BuiltPage> | undefined;

/**
 * Builds the page from its sources with the package's own Vite config, into a fresh temp dir,
 * once per test file: the tests always see the page as the sources are now, never a stale dist.
 */
export function buildPage(): Promise<BuiltPage> {
  built ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tandem-web-'));
    const root = join(import.meta.dirname, '..');
    const output = await build({ configFile: join(root, 'vite.config.ts'), root, logLevel: 'warn', build: { outDir: dir, emptyOutDir: true } });
    const outputs = (Array.isArray(output) ? output : [output]) as Rolldown.RolldownOutput[];
    const moduleIds = outputs.flatMap((out) => out.output.flatMap((chunk) => (chunk.type === 'chunk' ? chunk.moduleIds : [])));
    return { dir, moduleIds };
  })();
  return built;
}
