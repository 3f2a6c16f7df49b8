import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The packed tarball bundles the workspace packages and installs every npm package they use
// from its own dependencies (scripts/bundle.mjs): a dependency added to server, tools,
// assistant-tools, core, ai, tui or shared must be listed here too, or the installed `tandem` fails where it imports it.

const manifest = (pkg: string) =>
  JSON.parse(readFileSync(new URL(`../../${pkg}/package.json`, import.meta.url), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };

describe("the CLI's package.json", () => {
  it('lists every npm package the bundled workspace packages depend on, and no workspace package', () => {
    const cli = manifest('cli').dependencies ?? {};
    for (const pkg of ['server', 'tools', 'assistant-tools', 'core', 'ai', 'tui', 'shared', 'cli']) {
      for (const [name, version] of Object.entries(manifest(pkg).dependencies ?? {})) {
        if (version.startsWith('workspace:')) continue;
        expect(cli[name], `${name} (a dependency of @tandem/${pkg})`).toBe('catalog:');
      }
    }
    expect(Object.values(cli).some((version) => version.startsWith('workspace:'))).toBe(false);
  });
});
