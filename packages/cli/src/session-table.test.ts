import { describe, expect, it } from 'vitest';
import { formatSessionTable } from './session-table.js';

const session = (id: string, createdAt: string, extra: Partial<{ title: string; cwd: string }> = {}) => ({
  id,
  title: extra.title ?? 'demo',
  cwd: extra.cwd ?? '/work/demo',
  model: 'openai/gpt-4.1-mini',
  createdAt,
  status: 'idle' as const,
  lastSeq: 42,
});

describe('formatSessionTable', () => {
  it('prints aligned columns, newest first', () => {
    const text = formatSessionTable([session('aaa', '2026-01-01'), session('bbbbbb', '2026-02-01', { title: 'newer\nline' })]);
    expect(text).toBe(
      [
        'ID      TITLE       CWD         MODEL                STATUS  LAST SEQ',
        'bbbbbb  newer line  /work/demo  openai/gpt-4.1-mini  idle    42',
        'aaa     demo        /work/demo  openai/gpt-4.1-mini  idle    42',
        '',
      ].join('\n'),
    );
  });

  it('says so when there are none', () => {
    expect(formatSessionTable([])).toMatch(/^no sessions yet/);
  });

  it('shortens very long titles and paths', () => {
    const line = formatSessionTable([session('a', 'x', { title: 't'.repeat(80), cwd: '/p'.repeat(60) })]).split('\n')[1] ?? '';
    expect(line).toContain(`${'t'.repeat(29)}…`);
    expect(line.length).toBeLessThan(200);
  });
});
