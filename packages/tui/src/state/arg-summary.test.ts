import { describe, expect, it } from 'vitest';
import { formatDuration, summarizeArgs } from './arg-summary.js';

describe('summarizeArgs', () => {
  it('shows a command verbatim, one line', () => {
    expect(summarizeArgs('run_command', { command: 'go test ./... && echo "done"' })).toBe('go test ./... && echo "done"');
    expect(summarizeArgs('run_command', { command: 'a\nb' })).toBe('a ⏎ b');
  });

  it('shows paths and line ranges for file tools', () => {
    expect(summarizeArgs('read_file', { path: 'src/a.ts', startLine: 3, endLine: 9 })).toBe('src/a.ts:3-9');
    expect(summarizeArgs('list_directory', { path: '.' })).toBe('.');
  });

  it('shows patterns and queries', () => {
    expect(summarizeArgs('grep_files', { pattern: 'TODO', glob: '**/*.ts' })).toBe('/TODO/ in **/*.ts');
    expect(summarizeArgs('search_files', { pattern: '*.md' })).toBe('*.md');
    expect(summarizeArgs('web_search', { query: 'node 24 release' })).toBe('node 24 release');
  });

  it('never throws on odd arguments', () => {
    expect(summarizeArgs('x', undefined)).toBe('');
    expect(summarizeArgs('x', 'plain')).toBe('"plain"');
    expect(summarizeArgs('x', { a: 1, b: 'two', c: [3], d: 4 })).toBe('a=1 b=two c=[3]');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => summarizeArgs('x', cyclic)).not.toThrow();
    expect(summarizeArgs('run_command', { command: 'y'.repeat(1000) }).length).toBeLessThanOrEqual(300);
  });
});

describe('formatDuration', () => {
  it('reads like a person would say it', () => {
    expect(formatDuration(340)).toBe('340ms');
    expect(formatDuration(2100)).toBe('2.1s');
    expect(formatDuration(65_000)).toBe('1m05s');
    expect(formatDuration(Number.NaN)).toBe('?');
  });
});
