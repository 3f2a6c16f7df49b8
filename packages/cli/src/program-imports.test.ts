import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { staticPackageImports } from '@tandem/testkit';
import { describe, expect, it } from 'vitest';

const SRC = dirname(fileURLToPath(import.meta.url));
/** Packages that take a second or more of CPU to load: only a command's action may import them (dynamically). */
const HEAVY = ['@tandem/server', '@tandem/tui', '@tandem/core', '@tandem/ai', '@tandem/tools', '@tandem/assistant-tools'];

/** Every package a file loads at start-up, with the files that import it. */
const staticPackages = (entry: string) => staticPackageImports(SRC, entry);

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
      const heavy = HEAVY.filter((name) => packages.has(name));
      expect(heavy, `${entry}: use @tandem/server/local, @tandem/tui/client and @tandem/tui/session-choice; load @tandem/tui with loadTui()`).toEqual([]);
      expect(packages.has('@tandem/tui/client')).toBe(true);
    }
  });
});
