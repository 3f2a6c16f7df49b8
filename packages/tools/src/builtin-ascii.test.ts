import { describe, expect, it } from 'vitest';
import { buildSystemPrompt } from '@tandem/core';
import { builtinTools } from './builtin-tools.js';
import { toToolSpec } from '@tandem/core';
import { isOffered, notSetUp } from '@tandem/core';

/** Characters above 0x7f, with where they are: one of them makes the whole request body a two-byte string. */
function nonAscii(text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < text.length; i++)
    if (text.charCodeAt(i) > 0x7f) found.push(`${JSON.stringify(text[i])} in "…${text.slice(Math.max(0, i - 30), i + 10)}…"`);
  return found;
}

describe('built-in text sent with every request', () => {
  it('tool definitions (name, description, JSON schema) are ASCII only', () => {
    for (const tool of builtinTools()) expect(nonAscii(JSON.stringify(toToolSpec(tool))), tool.name).toEqual([]);
  });

  it("tool definitions leave out zod's +-(2^53 - 1) integer bounds and keep the real ones", () => {
    const specs = builtinTools().map((tool) => toToolSpec(tool));
    for (const spec of specs) expect(JSON.stringify(spec), spec.name).not.toContain(String(Number.MAX_SAFE_INTEGER));
    const readFile = specs.find((spec) => spec.name === 'read_file')!;
    expect((readFile.parameters.properties as Record<string, unknown>).offset).toEqual({
      description: 'First line to return (1-based)',
      type: 'integer',
      minimum: 1,
    });
  });

  it("the system prompt is ASCII only (its own text; the workspace path and AGENTS.md are the user's)", () => {
    // No services: the tools that wait for setting up are named with how, which is built-in text too.
    const tools = builtinTools();
    const prompt = buildSystemPrompt({
      cwd: '/work/space',
      tools: tools.filter((t) => isOffered(t, {})),
      notSetUp: notSetUp(tools, {}),
      agentsMd: 'project notes',
      now: new Date('2026-12-02T00:00:00Z'),
    });
    expect(prompt).toContain('Not set up here');
    expect(nonAscii(prompt)).toEqual([]);
  });
});
