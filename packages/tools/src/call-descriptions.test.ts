import { describe, expect, it } from 'vitest';
import { buildPermissionPreview } from '@tandem/coding-tools';
import { builtinTools } from './builtin-tools.js';
import { describeCall, summaryOf, type AnyTool } from '@tandem/core';
import { skillCommandTool } from '@tandem/coding-tools';

const tools = new Map(builtinTools().map((t) => [t.name, t]));
const tool = (name: string) => tools.get(name) as AnyTool;
const parsed = (name: string, args: unknown) => tool(name).schema.parse(args);
const summary = (name: string, args: unknown) => summaryOf(tool(name), parsed(name, args));

/** The dialog's preview of a call, as the gate builds it: from what the tool declares. */
function preview(name: string, args: unknown, workspace = '/ws'): string {
  const data = parsed(name, args);
  return buildPermissionPreview({ tool: name, args: data, danger: 'medium', ...describeCall(tool(name), data) }, { workspace });
}

describe('every built-in tool describes itself', () => {
  it('declares a kind; the editing tools are the ones auto-edit may run', () => {
    for (const t of tools.values()) expect(t.kind, t.name).toBeTruthy();
    const edits = [...tools.values()].filter((t) => t.kind === 'edit').map((t) => t.name);
    expect(edits.sort()).toEqual(['delete_lines', 'edit_file', 'insert_line', 'write_file']);
    expect(tool('run_command').kind).toBe('execute');
    expect(tool('configure_provider').alwaysAsk).toBe(true);
  });

  it('names its subject: a command, a path, a web address', () => {
    expect(describeCall(tool('run_command'), parsed('run_command', { command: ' git status ' })).subject).toEqual({ command: 'git status' });
    expect(describeCall(tool('edit_file'), parsed('edit_file', { path: 'a.ts', old_string: 'a', new_string: 'b' })).subject).toEqual({ path: 'a.ts' });
    expect(describeCall(tool('self_clone'), parsed('self_clone', { target: '/tmp/copy' })).subject).toEqual({ path: '/tmp/copy' });
    expect(describeCall(tool('web_fetch'), parsed('web_fetch', { url: 'https://example.com/a' })).subject).toEqual({ url: 'https://example.com/a' });
    expect(describeCall(tool('whatsapp_send'), parsed('whatsapp_send', { to: '31612345678', text: 'hi' })).subject).toBeUndefined();
  });

  it('a skill command is a command: its subject is the full command line', () => {
    const skill = skillCommandTool({ name: 'lint', description: 'Lints.', dir: '/skills/lint', command: 'npx eslint' } as never);
    const args = skill.schema.parse({ arguments: 'src' });
    const described = describeCall(skill, args);
    expect(described.kind).toBe('execute');
    expect(described.subject).toEqual({ command: 'npx eslint src' });
    expect(described.unknownWrites).toBe(true);
  });

  it('writes a one-line summary for transcripts', () => {
    expect(summary('run_command', { command: 'go test ./... && echo "done"' })).toBe('go test ./... && echo "done"');
    expect(summary('run_command', { command: 'a\nb' })).toBe('a ⏎ b');
    expect(summary('read_file', { path: 'src/a.ts', offset: 3 })).toBe('src/a.ts:3');
    expect(summary('edit_file', { path: 'a.ts', start_line: 3, end_line: 9, new_string: '' })).toBe('a.ts:3-9');
    expect(summary('list_directory', {})).toBe('.');
    expect(summary('grep_files', { pattern: 'TODO', glob: '**/*.ts' })).toBe('/TODO/ in **/*.ts');
    expect(summary('search_files', { pattern: '*.md' })).toBe('*.md');
    expect(summary('web_search', { query: 'node 24 release' })).toBe('node 24 release');
    expect(summary('run_command', { command: 'y'.repeat(1000) }).length).toBeLessThanOrEqual(300);
  });

  it('falls back to a few arguments when its summary cannot read them', () => {
    expect(summaryOf(tool('run_command'), { nonsense: 1 })).toBe('nonsense=1');
    expect(summaryOf(undefined, { a: 1 })).toBe('a=1');
  });
});

describe('the preview a person approves', () => {
  it('shows a command verbatim', () => {
    expect(preview('run_command', { command: ' git status && rm -rf tmp ' })).toBe('git status && rm -rf tmp');
  });

  it('shows an edit as a unified diff of its old and new text', () => {
    const shown = preview('edit_file', { path: 'src/a.ts', old_string: 'const a = 1;\n', new_string: 'const a = 2;\n' });
    expect(shown).toContain('--- src/a.ts');
    expect(shown).toContain('-const a = 1;');
    expect(shown).toContain('+const a = 2;');
    expect(shown).not.toContain('Index:');
  });

  it('shows a write as its path and the first lines, and a delete as its path', () => {
    const content = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n');
    const write = preview('write_file', { path: '/ws/b.txt', content });
    expect(write.split('\n')[0]).toBe('b.txt');
    expect(write).toContain('line 40');
    expect(write).not.toContain('line 41\n');
    expect(write).toContain('10 more lines');
    expect(preview('delete_file', { path: 'old' })).toBe('old');
  });

  it('shows a line-range edit, an insert and a deletion with their lines', () => {
    expect(preview('edit_file', { path: 'a.ts', start_line: 3, end_line: 5, new_string: 'x = 1' })).toBe('a.ts (lines 3–5)\nx = 1');
    expect(preview('insert_line', { path: 'a.ts', line: 2, content: 'y' })).toBe('a.ts (line 2)\ny');
    expect(preview('delete_lines', { path: 'a.ts', start_line: 1, end_line: 9 })).toBe('a.ts (lines 1–9)');
  });

  it('shows a message with its recipient and the whole text', () => {
    expect(preview('whatsapp_send', { to: '31612345678', text: 'Running late,\nsee you at 8' })).toBe('To: 31612345678\n\nRunning late,\nsee you at 8');
  });
});
