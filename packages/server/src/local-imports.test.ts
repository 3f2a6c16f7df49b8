import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = dirname(fileURLToPath(import.meta.url));

/** The packages `file` loads, following its static relative imports (type-only imports load nothing). */
function staticPackages(entry: string): Set<string> {
  const found = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(join(SRC, file), 'utf8');
    for (const match of text.matchAll(/^(?:import|export)\s+(?!type\b)[^'";]*?from\s+'([^']+)'|^import\s+'([^']+)'/gm)) {
      const spec = (match[1] ?? match[2])!;
      if (spec.startsWith('.')) visit(normalize(join(dirname(file), spec.replace(/\.js$/, '.ts'))));
      else found.add(spec);
    }
  };
  visit(entry);
  return found;
}

describe('@tandem/server/local', () => {
  it("loads only node's own modules and the provider table: a terminal that reads the server's files starts without the server", () => {
    const packages = [...staticPackages('local.ts')];
    expect(packages.filter((name) => !name.startsWith('node:'))).toEqual(['@tandem/ai/registry']);
  });
});
