import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = dirname(fileURLToPath(import.meta.url));
/** Packages that take a second or more of CPU to load: only a command's action may import them (dynamically). */
const HEAVY = ['@tandem/server', '@tandem/tui', '@tandem/core'];

/** Every package a file loads at start-up, following its static relative imports (type-only imports load nothing). */
function staticPackages(entry: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(join(SRC, file), 'utf8');
    for (const match of text.matchAll(/^(?:import|export)\s+(?!type\b)[^'";]*?from\s+'([^']+)'|^import\s+'([^']+)'/gm)) {
      const spec = (match[1] ?? match[2])!;
      if (spec.startsWith('.')) visit(normalize(join(dirname(file), spec.replace(/\.js$/, '.ts'))));
      else found.set(spec, [...(found.get(spec) ?? []), file]);
    }
  };
  visit(entry);
  return found;
}

describe('tandem start-up', () => {
  it('program.ts loads no heavy package at start-up: `tandem help` and a mistyped flag stay fast', () => {
    const packages = staticPackages('program.ts');
    const heavy = HEAVY.filter((name) => packages.has(name)).map((name) => `${name} (from ${packages.get(name)!.join(', ')})`);
    expect(heavy, 'import it inside the command action: `const { x } = await import(...)`').toEqual([]);
    expect(packages.has('commander')).toBe(true); // the walk does read the imports
  });

  it("program.ts loads no schema at start-up (zod, the protocol in @tandem/shared): `tandem serve` loads only the server's copy", () => {
    const packages = staticPackages('program.ts');
    const schemas = ['zod', '@tandem/shared'].filter((name) => packages.has(name)).map((name) => `${name} (from ${packages.get(name)!.join(', ')})`);
    expect(schemas, 'plain values come from @tandem/shared/share-terms; load schemas inside the command action').toEqual([]);
  });

  it("`tandem` and `tandem attach` load neither the server nor the engine, and the TUI's screen only after the network steps start", () => {
    for (const entry of ['commands/open.ts', 'commands/attach.ts']) {
      const packages = staticPackages(entry);
      const heavy = ['@tandem/server', '@tandem/core', '@tandem/tui'].filter((name) => packages.has(name));
      expect(heavy, `${entry}: use @tandem/server/local, @tandem/tui/client and @tandem/tui/session-choice; load @tandem/tui with loadTui()`).toEqual([]);
      expect(packages.has('@tandem/tui/client')).toBe(true);
    }
  });
});
