import { describe, expect, it } from 'vitest';
import { buildPermissionPreview, PREVIEW_MAX_CHARS } from './preview.js';

describe('buildPermissionPreview', () => {
  it('shows a command verbatim', () => {
    expect(buildPermissionPreview({ tool: 'run_command', args: { command: ' git status && rm -rf tmp ' }, danger: 'dangerous' })).toBe(
      'git status && rm -rf tmp',
    );
  });

  it('shows an edit as a unified diff of its old and new text', () => {
    const preview = buildPermissionPreview(
      { tool: 'edit_file', args: { path: 'src/a.ts', old_string: 'const a = 1;\n', new_string: 'const a = 2;\n' }, danger: 'medium' },
      { workspace: '/ws' },
    );
    expect(preview).toContain('--- src/a.ts');
    expect(preview).toContain('-const a = 1;');
    expect(preview).toContain('+const a = 2;');
    expect(preview).not.toContain('Index:');
  });

  it('shows a write as its path and the first lines, and a delete as its path', () => {
    const content = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n');
    const write = buildPermissionPreview({ tool: 'write_file', args: { path: '/ws/b.txt', content }, danger: 'medium' }, { workspace: '/ws' });
    expect(write.split('\n')[0]).toBe('b.txt');
    expect(write).toContain('line 40');
    expect(write).not.toContain('line 41\n');
    expect(write).toContain('10 more lines');
    expect(buildPermissionPreview({ tool: 'delete_file', args: { path: 'old' }, danger: 'dangerous' }, { workspace: '/ws' })).toBe('old');
  });

  it('shows a line-range edit, an insert and a deletion with their lines', () => {
    const opts = { workspace: '/ws' };
    expect(buildPermissionPreview({ tool: 'edit_file', args: { path: 'a.ts', start_line: 3, end_line: 5, new_string: 'x = 1' }, danger: 'medium' }, opts)).toBe(
      'a.ts (lines 3–5)\nx = 1',
    );
    expect(buildPermissionPreview({ tool: 'insert_line', args: { path: 'a.ts', line: 2, content: 'y' }, danger: 'medium' }, opts)).toBe('a.ts (line 2)\ny');
    expect(buildPermissionPreview({ tool: 'delete_lines', args: { path: 'a.ts', start_line: 1, end_line: 9 }, danger: 'medium' }, opts)).toBe(
      'a.ts (lines 1–9)',
    );
  });

  it('caps what it shows', () => {
    const preview = buildPermissionPreview({ tool: 'run_command', args: { command: 'x'.repeat(10_000) }, danger: 'dangerous' });
    expect(preview.length).toBeLessThan(PREVIEW_MAX_CHARS + 100);
  });
});
