import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const requirements = readFileSync(join(root, 'apps/docs/content/requirements.md'), 'utf8');

/** The ids requirements.md defines: `- **A5** …` list items, plus the letter sections. */
const defined = new Set([...requirements.matchAll(/^- \*\*([A-Z]\d+)\*\*/gm)].map((m) => m[1]!));

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name === 'site') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|mts|mjs)$/.test(name)) out.push(path);
  }
  return out;
}

/** `SPEC A5`, `requirements A5`, `SPEC A1-A10`: every id named, ranges by their two ends. */
export function citedIds(text: string): string[] {
  const ids: string[] = [];
  for (const m of text.matchAll(/\b(?:SPEC|requirements) ([A-Z]\d+)(?:-([A-Z]\d+))?\b/g)) ids.push(m[1]!, ...(m[2] ? [m[2]] : []));
  return ids;
}

describe('requirement ids', () => {
  it('requirements.md defines every id of every letter, each once', () => {
    const all = [...requirements.matchAll(/^- \*\*([A-Z]\d+)\*\*/gm)].map((m) => m[1]!);
    expect(all.length).toBe(defined.size);
    for (const id of ['A1', 'A12', 'T1', 'T2', 'P1', 'P6', 'M1', 'M6', 'C1', 'C2', 'H1', 'H5', 'U1', 'U8', 'G1', 'G5', 'K1', 'K3', 'S1', 'S3']) {
      expect(defined, id).toContain(id);
    }
  });

  it('every id the code cites is defined in requirements.md', () => {
    const dangling: string[] = [];
    for (const dir of ['packages', 'apps', 'test']) {
      for (const file of sourceFiles(join(root, dir))) {
        for (const id of citedIds(readFileSync(file, 'utf8'))) if (!defined.has(id)) dangling.push(`${relative(root, file)}: ${id}`);
      }
    }
    expect(dangling).toEqual([]);
  });

  it('reads the citation forms the code uses', () => {
    expect(citedIds('limits (SPEC A5: default 40); see requirements P3 and SPEC A1-A10')).toEqual(['A5', 'P3', 'A1', 'A10']);
    expect(citedIds('MODEL_SPEC = /x/; SPECS; the SPEC default')).toEqual([]);
  });
});
