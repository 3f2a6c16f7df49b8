import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

/**
 * Every package `entry` (a path inside `srcDir`) loads when it is imported, following its static
 * relative imports: each package name with the files that import it. Type-only imports load
 * nothing and are left out; dynamic `import()` is not followed (it loads later, on demand).
 */
export function staticPackageImports(srcDir: string, entry: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(join(srcDir, file), 'utf8');
    for (const match of text.matchAll(/^(?:import|export)\s+(?!type\b)[^'";]*?from\s+'([^']+)'|^import\s+'([^']+)'/gm)) {
      const spec = (match[1] ?? match[2])!;
      if (spec.startsWith('.')) visit(normalize(join(dirname(file), spec.replace(/\.js$/, '.ts'))));
      else found.set(spec, [...(found.get(spec) ?? []), file]);
    }
  };
  visit(entry);
  return found;
}
