import { describe, expect, it } from 'vitest';
import type { SessionInfo } from '@tandem/shared';
import { formatSessionTable, tildePath } from './session-table.js';

const session = (id: string, createdAt: string, extra: Partial<SessionInfo> = {}): SessionInfo => ({
  id,
  title: 'demo',
  cwd: '/work/demo',
  model: 'openai/gpt-4.1-mini',
  createdAt,
  status: 'idle',
  lastSeq: 42,
  ...extra,
});

describe('formatSessionTable', () => {
  it('prints aligned columns, newest first, with folder, status, model, mode and attached clients', () => {
    const text = formatSessionTable(
      [
        session('aaa', '2026-01-01', { mode: 'read-only', clients: 0 }),
        session('bbbbbb', '2026-02-01', { title: 'newer\nline', cwd: '/home/ana/app', status: 'waiting_permission', clients: 2 }),
      ],
      '/home/ana',
    );
    expect(text).toBe(
      [
        'ID      FOLDER      STATUS   MODEL                MODE       CLIENTS  TITLE',
        'bbbbbb  ~/app       waiting  openai/gpt-4.1-mini  ask        2        newer line',
        'aaa     /work/demo  idle     openai/gpt-4.1-mini  read-only  0        demo',
        '',
      ].join('\n'),
    );
    expect(text.split('\n').some((line) => / $/.test(line))).toBe(false);
  });

  it('says so when there are none', () => {
    expect(formatSessionTable([])).toMatch(/^no sessions yet/);
  });

  it('shortens very long titles (keeping the start) and folders (keeping the end)', () => {
    const line = formatSessionTable([session('a', 'x', { title: 't'.repeat(80), cwd: `/p${'/q'.repeat(60)}/end` })], '/home/x').split('\n')[1] ?? '';
    expect(line).toContain(`${'t'.repeat(29)}…`);
    expect(line).toMatch(/ …[q/]{45}\/end {2}/);
    expect(line.length).toBeLessThan(200);
  });

  it('writes home as ~ only for paths inside it', () => {
    expect(tildePath('/home/ana', '/home/ana')).toBe('~');
    expect(tildePath('/home/anabel/x', '/home/ana')).toBe('/home/anabel/x');
  });
});
