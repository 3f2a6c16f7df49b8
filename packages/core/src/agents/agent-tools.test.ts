import { describe, expect, it } from 'vitest';
import { agentsPromptSection } from './agents-prompt.js';
import type { AgentDefinition } from './agent-file.js';
import { isOrchestrationTool, mayOrchestrate, selectAgentTools } from './agent-tools.js';

const AVAILABLE = ['read_file', 'grep_files', 'run_command', 'dispatch_to', 'run_worker', 'hand_off_to', 'mcp__gh__search'];

describe('selectAgentTools', () => {
  it('without an allow-list: every tool except orchestration', () => {
    expect(selectAgentTools(undefined, AVAILABLE, { depth: 1 })).toEqual({ names: ['read_file', 'grep_files', 'run_command', 'mcp__gh__search'], unknown: [] });
    expect(selectAgentTools({}, AVAILABLE, { depth: 0 }).names).not.toContain('dispatch_to');
  });

  it('with an allow-list: only those tools, in the order offered; unknown names reported', () => {
    expect(selectAgentTools({ tools: ['grep_files', 'read_file', 'web_serch'] }, AVAILABLE, { depth: 1 })).toEqual({
      names: ['read_file', 'grep_files'],
      unknown: ['web_serch'],
    });
  });

  it('orchestration tools only when listed AND below the depth limit', () => {
    const def = { tools: ['read_file', 'dispatch_to'] };
    expect(selectAgentTools(def, AVAILABLE, { depth: 1 }).names).toEqual(['read_file']);
    expect(selectAgentTools(def, AVAILABLE, { depth: 1, maxDepth: 2 }).names).toEqual(['read_file', 'dispatch_to']);
    expect(mayOrchestrate(0)).toBe(true);
    expect(mayOrchestrate(1)).toBe(false);
    expect(isOrchestrationTool('run_worker')).toBe(true);
    expect(isOrchestrationTool('run_command')).toBe(false);
  });
});

describe('agentsPromptSection', () => {
  const def = (name: string, description: string, interactive = false): AgentDefinition => ({
    name,
    description,
    interactive,
    prompt: 'p',
    file: `/a/${name}.md`,
    scope: 'user',
  });

  it("lists each agent's name and description verbatim, marks interactive ones, and says how to dispatch", () => {
    const description = 'Reviews diffs for bugs; use after any edit — not for style.';
    const text = agentsPromptSection([def('reviewer', description), def('pair', 'Pairs with the user.', true)])!;
    expect(text).toContain(`- reviewer: ${description}`);
    expect(text).toContain('- pair (interactive): Pairs with the user.');
    expect(text).toContain('dispatch_to');
    expect(text).toContain('never by writing @name');
    expect(agentsPromptSection([])).toBeUndefined();
  });
});
