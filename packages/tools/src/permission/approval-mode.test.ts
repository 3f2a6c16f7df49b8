import { describe, expect, it } from 'vitest';
import type { ToolKind } from '@tandem/shared';
import { builtinTools } from '../builtin-tools.js';
import { autoEditAllows, readOnlyModeRefusal } from '@tandem/coding-tools';

const ws = '/home/u/project';
const KINDS = new Map<string, ToolKind>(builtinTools().map((t) => [t.name, t.kind]));
/** A built-in tool's call with its declared kind, as the gate receives it. */
const edit = (tool: string, paths: string[]) => ({ tool, kind: KINDS.get(tool), danger: 'medium' as const, readOnly: false, paths });

describe('auto-edit mode', () => {
  it.each(['write_file', 'edit_file', 'insert_line', 'delete_lines'])('lets %s run inside the workspace', (tool) => {
    expect(autoEditAllows(edit(tool, [`${ws}/src/a.ts`]), 'auto-edit', ws)).toBe('auto-edit mode: a file edit inside the workspace');
  });

  it.each([
    ['delete_file inside the workspace', edit('delete_file', [`${ws}/a.ts`])],
    ['a path outside (a granted directory)', edit('write_file', ['/home/u/other/a.ts'])],
    ['the workspace itself', edit('write_file', [ws])],
    ['a sibling that shares the prefix', edit('write_file', [`${ws}-evil/a.ts`])],
    ['.git/config', edit('write_file', [`${ws}/.git/config`])],
    ['a .git hook deeper down', edit('edit_file', [`${ws}/sub/.git/hooks/pre-commit`])],
    ['no resolved paths', { tool: 'write_file', kind: 'edit' as const, danger: 'medium' as const, readOnly: false }],
    ['an always-ask edit', { ...edit('write_file', [`${ws}/a.ts`]), alwaysAsk: true }],
    ['a tool that declares no kind, whatever its name', { tool: 'write_file', danger: 'medium' as const, readOnly: false, paths: [`${ws}/a.ts`] }],
  ])('still asks for %s', (_what, call) => {
    expect(autoEditAllows(call, 'auto-edit', ws)).toBeNull();
  });

  it('does nothing in the other modes', () => {
    expect(autoEditAllows(edit('write_file', [`${ws}/a.ts`]), 'ask', ws)).toBeNull();
    expect(autoEditAllows(edit('write_file', [`${ws}/a.ts`]), 'read-only', ws)).toBeNull();
  });
});

describe('read-only mode', () => {
  const command = { isCommand: true, readOnly: null, command: 'touch x' };
  it('refuses a command that is not read-only, and every writing tool, saying what to do', () => {
    expect(readOnlyModeRefusal({ tool: 'run_command', danger: 'dangerous', readOnly: false }, 'read-only', command)).toMatch(
      /read-only mode and `touch x` is not a read-only command.*switch the approval mode/,
    );
    expect(readOnlyModeRefusal(edit('write_file', []), 'read-only', { isCommand: false, readOnly: null })).toMatch(
      /read-only mode, so write_file .* is not available/,
    );
    expect(readOnlyModeRefusal({ tool: 'save_note', danger: 'medium', readOnly: false }, 'read-only', { isCommand: false, readOnly: null })).not.toBeNull();
  });

  it('lets read-only commands, read tools and safe tools through', () => {
    expect(
      readOnlyModeRefusal({ tool: 'run_command', danger: 'dangerous', readOnly: false }, 'read-only', {
        isCommand: true,
        readOnly: 'read-only command: ls',
        command: 'ls',
      }),
    ).toBeNull();
    expect(readOnlyModeRefusal({ tool: 'read_file', danger: 'safe', readOnly: true }, 'read-only', { isCommand: false, readOnly: null })).toBeNull();
    expect(readOnlyModeRefusal({ tool: 'read_env', danger: 'medium', readOnly: true }, 'read-only', { isCommand: false, readOnly: null })).toBeNull();
  });

  it('refuses nothing in the other modes', () => {
    expect(readOnlyModeRefusal({ tool: 'run_command', danger: 'dangerous', readOnly: false }, 'ask', command)).toBeNull();
    expect(readOnlyModeRefusal(edit('write_file', []), 'auto-edit', { isCommand: false, readOnly: null })).toBeNull();
  });
});
