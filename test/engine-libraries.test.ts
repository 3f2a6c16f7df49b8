import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The engine (@tandem/core) runs with no product library installed: no provider SDK (they belong
 * to @tandem/ai, loaded with the first request), no web, calendar or HTML library (they belong
 * to @tandem/assistant-tools) and none of the coding tools' file and diff libraries (they belong
 * to @tandem/coding-tools). Its package.json lists none, and importing its entry point loads none.
 * The coding tools in turn load no provider SDK and no assistant library.
 */
const root = resolve(import.meta.dirname, '..');
const PROVIDER_AND_ASSISTANT = ['openai', '@anthropic-ai/sdk', '@mozilla/readability', 'linkedom', 'turndown', 'ical.js', 'tsdav'];
const CODING_LIBRARIES = ['ignore', 'picomatch', 'tinyglobby', 'diff', 'strip-ansi'];
const PRODUCT_LIBRARIES = [...PROVIDER_AND_ASSISTANT, ...CODING_LIBRARIES];

/** A resolve hook that refuses every product library, as if it were not installed. */
const refuseHook = (refused: readonly string[]) => `
const blocked = new Set(${JSON.stringify(refused)});
const packageOf = (s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]);
export async function resolve(specifier, context, next) {
  if (blocked.has(packageOf(specifier))) throw new Error('product library loaded: ' + specifier);
  return next(specifier, context);
}`;
const register = (refused: readonly string[]) =>
  `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(refuseHook(refused))}`)});`;

/** Imports `specifier` (then evaluates `then`) in a fresh node where `refused` cannot load. */
function importWithout(refused: readonly string[], specifier: string, then = ''): { status: number | null; output: string } {
  const script = `await import(${JSON.stringify(specifier)}); ${then} console.log('imported');`;
  const run = spawnSync(
    process.execPath,
    [
      '--conditions=tandem-source',
      '--import',
      'tsx',
      '--import',
      `data:text/javascript,${encodeURIComponent(register(refused))}`,
      '--input-type=module',
      '-e',
      script,
    ],
    { cwd: join(root, 'packages/server'), encoding: 'utf8' },
  );
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('the engine without product libraries', () => {
  it("its package.json lists no provider SDK, no web, calendar or HTML library, no coding tools' library", () => {
    const manifest = JSON.parse(readFileSync(join(root, 'packages/core/package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    const listed = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
    expect(listed.filter((name) => PRODUCT_LIBRARIES.includes(name))).toEqual([]);
  });

  it('imports its entry point, and the model side below it, with every product and coding library refused', () => {
    const run = importWithout(
      PRODUCT_LIBRARIES,
      '@tandem/core',
      "const core = await import('@tandem/core'); if (typeof core.runTurn !== 'function') throw new Error('no runTurn');",
    );
    expect(run.output).toContain('imported');
    expect(run.status).toBe(0);
  });

  it('the coding tools import with every provider SDK and assistant library refused', () => {
    const run = importWithout(
      PROVIDER_AND_ASSISTANT,
      '@tandem/coding-tools',
      "const coding = await import('@tandem/coding-tools'); if (coding.codingTools().length === 0) throw new Error('no coding tools');",
    );
    expect(run.output).toContain('imported');
    expect(run.status).toBe(0);
  });

  it('the refusal bites: importing a product library itself fails', () => {
    const run = importWithout(PRODUCT_LIBRARIES, 'linkedom');
    expect(run.output).toContain('product library loaded: linkedom');
    expect(run.status).not.toBe(0);
  });
});
