import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Inside the engine (packages/core) and the coding tools (packages/coding-tools) every import runs
 * DOWN the package's floors (docs: architecture.md, "Layers inside the engine"). A part may import
 * its own files and any part on a lower floor; never one on its own floor or above. Tests may reach
 * anywhere in their package (they exercise parts together).
 */
const CORE_FLOORS: Record<string, number> = {
  // 0: what every part shares (ToolError, SandboxError, EngineEvent, stableJson, atomic write, the
  // definition-folder walker). The message contract, the clock and the tool-argument helpers live
  // below the engine, in @tandem/ai.
  base: 0,
  // 1: the host's side effects behind interfaces (command runner and its non-interactive
  // environment, the command check, jobs, gate, path resolver)
  ports: 1,
  // 2: guards and texts that need nothing but the floors below
  secrets: 2,
  prompt: 2,
  // custom slash commands (.tandem/commands, .claude/commands …): files read and parsed, nothing else
  'slash-commands': 2,
  // 3: the tool contract (defineTool, what a tool declares, its host services); context accounting
  // and compaction. The tools themselves live in their packages (@tandem/coding-tools …).
  tools: 3,
  context: 3,
  // 4: long-term memory (its tools, its consolidation calls)
  memory: 4,
  // 5: the agent loop: one turn; skills (SKILL.md discovery, read_skill and the prompt section);
  // agents (definitions, registry, hand-back and @NAME parsing, orchestration tools over a port);
  // the loop also runs an external agent's turn (its command as one host call)
  loop: 5,
  skills: 5,
  agents: 5,
  // 6: rebuilding a conversation from a session's events; self-evolution (signals, reflection with
  // the memory chain, an agent's private skill library)
  conversation: 6,
  evolution: 6,
  // 7: the public entry point
  'index.ts': 7,
};

const CODING_FLOORS: Record<string, number> = {
  // 0: the path sandbox (what a path may be, protected paths, verified opens)
  sandbox: 0,
  // 1: the shell lexer and the command blacklist (uses the sandbox's protected paths)
  shell: 1,
  // 2: the permission policy: rules, levels of commands, read-only commands, approval modes
  permission: 2,
  // 3: the coding tools (files, search, edits, commands, jobs, skills' commands)
  tools: 3,
  // 4: the public entry point
  'index.ts': 4,
};

const PACKAGES = [
  { name: 'core', src: resolve(import.meta.dirname, '..', 'packages/core/src'), floors: CORE_FLOORS },
  { name: 'coding-tools', src: resolve(import.meta.dirname, '..', 'packages/coding-tools/src'), floors: CODING_FLOORS },
];

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

/** Every import of `files` (paths inside a package's src, with their relative specifiers) that runs up or sideways. */
function upwardImports(src: string, floors: Record<string, number>, files: ReadonlyArray<{ from: string; specs: readonly string[] }>): string[] {
  const violations: string[] = [];
  for (const { from, specs } of files) {
    const part = partOf(from);
    for (const spec of specs) {
      const target = relative(src, resolve(src, from, '..', spec).replace(/\.js$/, '.ts'));
      const targetPart = partOf(target);
      if (targetPart === part) continue;
      const a = floors[part];
      const b = floors[targetPart];
      if (a === undefined || b === undefined || b >= a) violations.push(`${from} (floor ${a}) imports ${target} (floor ${b})`);
    }
  }
  return violations;
}

for (const { name, src, floors } of PACKAGES) {
  describe(`layers inside ${name}`, () => {
    const productionFiles = sourceFiles(src).filter((f) => !isTest(f));

    it(`every part of ${name} has a floor`, () => {
      const parts = new Set(productionFiles.map((f) => partOf(relative(src, f))));
      const unplaced = [...parts].filter((p) => !(p in floors));
      expect(unplaced, 'add the new part to its floors (and architecture.md)').toEqual([]);
    });

    it('no import runs upward or sideways between parts', () => {
      const files = productionFiles.map((f) => ({ from: relative(src, f), specs: relativeImports(f) }));
      expect(upwardImports(src, floors, files)).toEqual([]);
    });

    it('reaches another package through its entry point only (tests may use testing helpers)', () => {
      const violations: string[] = [];
      for (const file of sourceFiles(src)) {
        const text = readFileSync(file, 'utf8');
        for (const m of text.matchAll(/from\s*['"](@tandem\/[^'"]*)['"]/g)) {
          const spec = m[1]!;
          if (spec.split('/').length === 2) continue;
          if (isTest(file) && /^@tandem\/[^/]+\/testing\//.test(spec)) continue;
          violations.push(`${relative(src, file)} imports ${spec}`);
        }
      }
      expect(violations).toEqual([]);
    });
  });
}

describe('the floor checker', () => {
  const coreSrc = PACKAGES[0]!.src;
  it('the checker catches upward and sideways imports and passes downward ones', () => {
    const found = upwardImports(coreSrc, CORE_FLOORS, [
      { from: join('prompt', 'instruction-files.ts'), specs: ['../tools/define.js', '../base/tool-error.js', './agents-md.js'] },
      { from: join('memory', 'recall.ts'), specs: ['../loop/types.js', '../tools/define.js', '../ports/tool-gate.js'] },
      { from: join('loop', 'run-turn.ts'), specs: ['../context/index.js', '../conversation/index.js'] },
    ]);
    expect(found).toEqual([
      'prompt/instruction-files.ts (floor 2) imports tools/define.ts (floor 3)',
      'memory/recall.ts (floor 4) imports loop/types.ts (floor 5)',
      'loop/run-turn.ts (floor 5) imports conversation/index.ts (floor 6)',
    ]);
  });
});
