import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * architecture.md's package map: shared ← ai ← core ← coding-tools ← assistant-tools ← tools ← server, shared ← tui. No cycles, no reaching into another
 * package's src. This test fails the suite on any import or dependency that breaks that.
 */
const root = resolve(import.meta.dirname, '..');

const ALLOWED: Record<string, string[]> = {
  shared: [],
  testkit: [],
  ai: ['shared'],
  core: ['shared', 'ai'],
  // The coding tools: files, search, edits, commands, with the command blacklist, the path sandbox
  // and the permission policy. On top of the engine's tool contract.
  'coding-tools': ['shared', 'ai', 'core'],
  // self_clone checks its target with the sandbox's isWithin and reports like the file tools.
  'assistant-tools': ['shared', 'ai', 'core', 'coding-tools'],
  // The built-in tool list: every tool package put together, above all of them.
  tools: ['shared', 'core', 'coding-tools', 'assistant-tools'],
  server: ['shared', 'ai', 'core', 'coding-tools', 'assistant-tools', 'tools'],
  tui: ['shared'],
  // The web viewer's page: the TUI's reducer and client (browser-safe subpaths), never core or server.
  web: ['shared', 'tui'],
  cli: ['shared', 'server', 'tui'],
  // The bench drives real servers and times the TUI's reducer over a long session (attach-long-session.ts).
  bench: ['shared', 'ai', 'core', 'server', 'tui', 'testkit'],
};
/** The repository's own dev tools (vitest …): any package's tests may import them. */
const ROOT_DEV = Object.keys(
  (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> }).devDependencies ?? {},
);

/** 'openai/streaming' -> 'openai'; '@anthropic-ai/sdk/streaming' -> '@anthropic-ai/sdk'. */
function packageName(spec: string): string {
  return spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');
}

/** Test-only helpers any package may use in its tests. */
const TEST_ONLY = new Set(['testkit']);

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|tsx|mts)$/.test(name)) out.push(path);
  }
  return out;
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  const re = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;
  for (const m of text.matchAll(re)) found.push((m[1] ?? m[2] ?? m[3])!);
  return found;
}

describe('dependency direction', () => {
  for (const [pkg, allowed] of Object.entries(ALLOWED)) {
    it(`${pkg} depends only on ${allowed.join(', ') || 'nothing in the workspace'}`, () => {
      const pkgDir = join(root, 'packages', pkg);
      const manifest = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
        devDependencies?: Record<string, string>;
      };
      const declared = Object.keys(manifest.dependencies ?? {}).filter((d) => d.startsWith('@tandem/'));
      const production = new Set(Object.keys(manifest.dependencies ?? {}));
      const forTests = new Set([...production, ...Object.keys(manifest.devDependencies ?? {}), ...ROOT_DEV]);
      for (const dep of declared) expect(allowed, `${pkg} declares ${dep}`).toContain(dep.slice('@tandem/'.length));

      const violations: string[] = [];
      for (const file of sourceFiles(join(pkgDir, 'src'))) {
        const isTest = file.endsWith('.test.ts') || file.endsWith('.test-helper.ts');
        for (const spec of importsOf(file)) {
          const where = relative(root, file);
          if (spec.startsWith('@tandem/')) {
            const target = spec.slice('@tandem/'.length).split('/')[0]!;
            if (spec.includes('/src')) violations.push(`${where}: reaches into ${spec}`);
            if (target === pkg) continue;
            if (isTest && TEST_ONLY.has(target)) continue;
            if (!allowed.includes(target)) violations.push(`${where}: imports ${spec}`);
          } else if (spec.startsWith('.')) {
            const target = resolve(file, '..', spec);
            if (!target.startsWith(pkgDir + '/')) violations.push(`${where}: relative import leaves the package: ${spec}`);
          } else if (!spec.startsWith('node:')) {
            // An npm package: only what this package's manifest lists (so the engine cannot reach a provider SDK).
            const name = packageName(spec);
            if (!(isTest ? forTests : production).has(name)) violations.push(`${where}: imports ${name}, not in package.json`);
          }
        }
      }
      expect(violations).toEqual([]);
    });
  }

  it('the tui never imports core or server, even in tests', () => {
    const bad = sourceFiles(join(root, 'packages/tui/src')).flatMap((f) =>
      importsOf(f)
        .filter((s) => s.startsWith('@tandem/core') || s.startsWith('@tandem/server'))
        .map((s) => `${relative(root, f)}: ${s}`),
    );
    expect(bad).toEqual([]);
  });
});
