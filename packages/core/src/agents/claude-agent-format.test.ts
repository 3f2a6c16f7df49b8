import { describe, expect, it } from 'vitest';
import { parseAgentFile } from './agent-file.js';
import { mapToolNames, resolveModelAlias } from './claude-agent-format.js';

const claude = (frontmatter: string, file = '/w/.claude/agents/code-reviewer.md') =>
  parseAgentFile(`---\n${frontmatter}\n---\nYou review.\n`, file, 'project', { claude: true });

describe("Claude Code's agent format", () => {
  it('maps Claude tool names to Tandem tools and reports the rest', () => {
    expect(mapToolNames(['Read', 'Edit', 'Write', 'Bash', 'Grep', 'Glob', 'WebFetch', 'WebSearch'])).toEqual({
      tools: ['read_file', 'edit_file', 'write_file', 'run_command', 'grep_files', 'search_files', 'web_fetch', 'web_search'],
      unknown: [],
      patterns: [],
    });
    expect(mapToolNames(['Read', 'TodoWrite', 'mcp__github__search', 'Bash(npm test:*)'])).toEqual({
      tools: ['read_file', 'mcp__github__search', 'run_command'],
      unknown: ['TodoWrite'],
      patterns: ['Bash(npm test:*)'],
    });
  });

  it('reads a Claude Code file: name from the frontmatter, tools mapped with warnings, model aliases kept', () => {
    const parsed = claude('name: reviewer\ndescription: Reviews\ntools: Read, Grep, NotebookEdit\nmodel: opus\ncolor: red');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.agent).toMatchObject({ name: 'reviewer', tools: ['read_file', 'grep_files'], modelAlias: 'opus' });
    expect(parsed.agent.model).toBeUndefined();
    expect(parsed.agent.warnings).toEqual(['tools: NotebookEdit: no such tool in Tandem, left out']);
  });

  it('model: inherit is the session’s model; a Tandem file still needs name = file name', () => {
    const inherit = claude('name: reviewer\ndescription: Reviews\nmodel: inherit');
    expect(inherit.ok && inherit.agent.model === undefined && inherit.agent.modelAlias === undefined).toBe(true);
    const tandem = parseAgentFile('---\nname: reviewer\ndescription: x\nmodel: sonnet\n---\nbody\n', '/w/.tandem/agents/other.md', 'project');
    expect(tandem.ok).toBe(false);
    const bad = claude('name: reviewer\ndescription: Reviews\nmodel: gpt');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatchObject({ field: 'model' });
  });

  it('resolves an alias to the family on the session’s provider, or nothing', () => {
    const models = [
      { id: 'anthropic/claude-sonnet-4-5', provider: 'anthropic' },
      { id: 'anthropic/claude-haiku-4-5', provider: 'anthropic' },
      { id: 'openrouter/anthropic/claude-sonnet-4.5', provider: 'openrouter' },
      { id: 'openai/gpt-4.1', provider: 'openai' },
    ];
    expect(resolveModelAlias('sonnet', 'anthropic/claude-haiku-4-5', models)).toBe('anthropic/claude-sonnet-4-5');
    expect(resolveModelAlias('sonnet', 'openrouter/openai/gpt-4.1', models)).toBe('openrouter/anthropic/claude-sonnet-4.5');
    expect(resolveModelAlias('opus', 'anthropic/claude-haiku-4-5', models)).toBeUndefined();
    expect(resolveModelAlias('haiku', 'openai/gpt-4.1', models)).toBeUndefined();
  });
});
