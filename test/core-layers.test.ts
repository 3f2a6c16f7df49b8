import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Inside packages/core every import runs DOWN this order (docs: architecture.md, "Layers inside
 * the engine"). A part may import its own files and any part on a lower floor; never one on its
 * own floor or above. Tests may reach anywhere in the package (they exercise parts together).
 */
const CORE_FLOORS: Record<string, number> = {
  // 0: what every part shares (ToolError, EngineEvent, stableJson, atomic write, the definition-folder
  // walker). The message contract, the clock and the tool-argument helpers live below the engine, in @tandem/ai.
  base: 0,
  // 1: the host's side effects behind interfaces (command runner, jobs, gate, path resolver)
  ports: 1,
  // 2: guards and texts that need nothing but the floors below
  secrets: 2,
  sandbox: 2,
  prompt: 2,
  // custom slash commands (.tandem/commands, .claude/commands …): files read and parsed, nothing else
  'slash-commands': 2,
  // 3: the command parser and blacklist (uses sandbox's protected paths)
  shell: 3,
  // 4: permission rules
  permission: 4,
  // 5: the tools; context accounting and compaction
  tools: 5,
  context: 5,
  // 6: long-term memory (its tools, its consolidation calls)
  memory: 6,
  // 7: the agent loop: one turn; skills (SKILL.md discovery, their tools and prompt section);
  // agents (definitions, registry, hand-back and @NAME parsing, orchestration tools over a port);
  // the loop also runs an external agent's turn (its command as one host call)
  loop: 7,
  skills: 7,
  agents: 7,
  // 8: rebuilding a conversation from a session's events; self-evolution (signals, reflection with
  // the memory chain, an agent's private skill library)
  conversation: 8,
  evolution: 8,
  // 9: the public entry point
  'index.ts': 9,
};

const coreSrc = resolve(import.meta.dirname, '..', 'packages/core/src');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|mts)$/.test(name)) out.push(path);
  }
  return out;
}

function isTest(file: string): boolean {
  return /\.test\.ts$|\.test-helper\.ts$/.test(file);
}

function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const re = /(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/gm;
  return [...text.matchAll(re)].map((m) => (m[1] ?? m[2])!);
}

/** 'loop/run-turn.ts' -> 'loop'; 'messages.ts' -> 'messages.ts'. */
function partOf(pathInSrc: string): string {
  return pathInSrc.split(sep)[0]!;
}

/** Every import of `files` (paths inside core/src, with their relative specifiers) that runs up or sideways. */
function upwardImports(files: ReadonlyArray<{ from: string; specs: readonly string[] }>): string[] {
  const violations: string[] = [];
  for (const { from, specs } of files) {
    const part = partOf(from);
    for (const spec of specs) {
      const target = relative(coreSrc, resolve(coreSrc, from, '..', spec).replace(/\.js$/, '.ts'));
      const targetPart = partOf(target);
      if (targetPart === part) continue;
      const a = CORE_FLOORS[part];
      const b = CORE_FLOORS[targetPart];
      if (a === undefined || b === undefined || b >= a) violations.push(`${from} (floor ${a}) imports ${target} (floor ${b})`);
    }
  }
  return violations;
}

const productionFiles = sourceFiles(coreSrc).filter((f) => !isTest(f));

describe('layers inside core', () => {
  it('every part of core has a floor', () => {
    const parts = new Set(productionFiles.map((f) => partOf(relative(coreSrc, f))));
    const unplaced = [...parts].filter((p) => !(p in CORE_FLOORS));
    expect(unplaced, 'add the new part to CORE_FLOORS (and architecture.md)').toEqual([]);
  });

  it('no import runs upward or sideways between parts', () => {
    const files = productionFiles.map((f) => ({ from: relative(coreSrc, f), specs: relativeImports(f) }));
    expect(upwardImports(files)).toEqual([]);
  });

  it('the engine reaches @tandem/ai through its entry point only (its tests may use its testing helpers)', () => {
    const violations: string[] = [];
    for (const file of sourceFiles(coreSrc)) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/from\s*['"](@tandem\/ai[^'"]*)['"]/g)) {
        const spec = m[1]!;
        if (spec === '@tandem/ai') continue;
        if (isTest(file) && spec.startsWith('@tandem/ai/testing/')) continue;
        violations.push(`${relative(coreSrc, file)} imports ${spec}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('the checker catches upward and sideways imports and passes downward ones', () => {
    const found = upwardImports([
      { from: join('sandbox', 'safe-open.ts'), specs: ['../tools/define.js', '../base/tool-error.js', './real-path.js'] },
      { from: join('permission', 'resolve.ts'), specs: ['../loop/types.js', '../tools/define.js', '../ports/tool-gate.js'] },
      { from: join('loop', 'run-turn.ts'), specs: ['../context/index.js', '../conversation/index.js'] },
    ]);
    expect(found).toEqual([
      'sandbox/safe-open.ts (floor 2) imports tools/define.ts (floor 5)',
      'permission/resolve.ts (floor 4) imports loop/types.ts (floor 7)',
      'permission/resolve.ts (floor 4) imports tools/define.ts (floor 5)',
      'loop/run-turn.ts (floor 7) imports conversation/index.ts (floor 8)',
    ]);
  });
});
