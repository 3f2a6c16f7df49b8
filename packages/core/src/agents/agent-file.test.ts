import { describe, expect, it } from 'vitest';
import { type AgentParse, formatAgentFileError, parseAgentFile } from './agent-file.js';

const FILE = '/ws/.tandem/agents/reviewer.md';
const parse = (text: string, file = FILE): AgentParse => parseAgentFile(text, file, 'project');
const errorOf = (p: AgentParse) => (p.ok ? undefined : p.error);

describe('parseAgentFile', () => {
  it('reads name, description, model, tools and interactive; the body is the system prompt', () => {
    const parsed = parse(
      '\uFEFF---\r\nname: reviewer\r\ndescription: >-\r\n  Reviews a diff.\r\n  Use after edits.\r\nmodel: anthropic/claude-sonnet-4-5\r\ntools: [read_file, grep_files, read_file]\r\ninteractive: true\r\ncolor: blue\r\n---\r\nYou review code.\r\nBe brief.\r\n',
    );
    expect(parsed).toEqual({
      ok: true,
      agent: {
        name: 'reviewer',
        description: 'Reviews a diff. Use after edits.',
        model: 'anthropic/claude-sonnet-4-5',
        tools: ['read_file', 'grep_files'],
        interactive: true,
        prompt: 'You review code.\r\nBe brief.',
        file: FILE,
        scope: 'project',
      },
    });
  });

  it('defaults: no model, no tools list (all non-orchestration tools), not interactive; accepts a comma-separated tools string', () => {
    const plain = parse('---\nname: reviewer\ndescription: d\n---\nprompt');
    expect(plain).toMatchObject({ ok: true, agent: { interactive: false } });
    if (plain.ok) {
      expect(plain.agent.model).toBeUndefined();
      expect(plain.agent.tools).toBeUndefined();
    }
    expect(parse('---\nname: reviewer\ndescription: d\ntools: read_file, grep_files\n---\np')).toMatchObject({
      ok: true,
      agent: { tools: ['read_file', 'grep_files'] },
    });
  });

  // Each bad file: the field named, and a message saying what to do.
  const cases: Array<[string, string, string | undefined, string]> = [
    ['no frontmatter', 'just a prompt', undefined, 'no frontmatter'],
    ['bad YAML', '---\nname: [reviewer\n---\np', undefined, 'not valid YAML'],
    ['a YAML list, not pairs', '---\n- a\n- b\n---\np', undefined, 'key: value'],
    ['missing name', '---\ndescription: d\n---\np', 'name', 'is missing'],
    ['name not a string', '---\nname: 5\ndescription: d\n---\np', 'name', 'must be a string'],
    ['bad name characters', '---\nname: Re_viewer\ndescription: d\n---\np', 'name', 'a-z, 0-9'],
    ['a leading dash', '---\nname: -reviewer\ndescription: d\n---\np', 'name', 'starting with a letter or digit'],
    ['reserved name commander', '---\nname: commander\ndescription: d\n---\np', 'name', 'reserved'],
    ['reserved name worker-N', '---\nname: worker-2\ndescription: d\n---\np', 'name', 'reserved'],
    ['name differs from the file name', '---\nname: other\ndescription: d\n---\np', 'name', 'file name "reviewer"'],
    ['missing description', '---\nname: reviewer\n---\np', 'description', 'is missing'],
    ['empty description', '---\nname: reviewer\ndescription: "  "\n---\np', 'description', 'is empty'],
    ['long description', `---\nname: reviewer\ndescription: ${'x'.repeat(1025)}\n---\np`, 'description', '1024'],
    ['model without provider', '---\nname: reviewer\ndescription: d\nmodel: gpt-4.1\n---\np', 'model', 'provider/model'],
    ['tools not a list', '---\nname: reviewer\ndescription: d\ntools: 3\n---\np', 'tools', 'list of tool names'],
    ['a tool that is not a string', '---\nname: reviewer\ndescription: d\ntools: [read_file, 7]\n---\np', 'tools.1', 'tool name'],
    ['interactive not a boolean', '---\nname: reviewer\ndescription: d\ninteractive: "yes"\n---\np', 'interactive', 'true or false'],
    ['no body', '---\nname: reviewer\ndescription: d\n---\n  \n', 'body', 'system prompt'],
    ['command not a string', '---\nname: reviewer\ndescription: d\ncommand: [claude]\n---\np', 'command', 'agent CLI'],
    ['empty command', '---\nname: reviewer\ndescription: d\ncommand: "  "\n---\np', 'command', 'is empty'],
    ['evolve not a boolean', '---\nname: reviewer\ndescription: d\nevolve: sometimes\n---\np', 'evolve', 'true or false'],
  ];

  it('reads an external agent (command:, body optional) and the evolve opt-in', () => {
    expect(parse('---\nname: reviewer\ndescription: d\ncommand: claude -p {task}\n---\n')).toMatchObject({
      ok: true,
      agent: { command: 'claude -p {task}', prompt: '' },
    });
    expect(parse('---\nname: reviewer\ndescription: d\nevolve: true\n---\np')).toMatchObject({ ok: true, agent: { evolve: true } });
    const plain = parse('---\nname: reviewer\ndescription: d\n---\np');
    expect(plain.ok && plain.agent.evolve).toBeFalsy();
    expect(plain.ok && plain.agent.command).toBeUndefined();
  });
  it.each(cases)('refuses %s, naming the file and the field', (_label, text, field, message) => {
    const error = errorOf(parse(text));
    expect(error).toBeDefined();
    expect(error?.file).toBe(FILE);
    expect(error?.field).toBe(field);
    expect(error?.message).toContain(message);
  });

  it('formats an error as one line: file, field, message', () => {
    const error = errorOf(parse('---\nname: reviewer\ndescription: d\ninteractive: 1\n---\np'))!;
    expect(formatAgentFileError(error)).toBe(`${FILE}: field \`interactive\`: must be true or false`);
    expect(formatAgentFileError({ file: FILE, message: 'has no frontmatter' })).toBe(`${FILE}: has no frontmatter`);
  });
});
