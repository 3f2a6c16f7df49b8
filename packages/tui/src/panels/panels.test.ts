import type { AuditRecord, JobInfo, StoredPermission } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { auditContent } from './audit-panel.js';
import { jobsContent } from './jobs-panel.js';
import { HISTORY_TAIL_LINES, memoryContent } from './memory-panel.js';
import { failure } from './panel-controller.js';
import { moveSelection, panelKey } from './panel-keys.js';
import { permissionsContent } from './permissions-panel.js';

const JOBS: JobInfo[] = [
  { jobId: 'job-1', command: 'npm run dev', startedAt: '2026-01-01T10:00:00.000Z', status: 'running', logPath: '/d/job-1.log' },
  { jobId: 'job-2', command: 'make', startedAt: '2026-01-01T10:01:00.000Z', status: 'exited', exitCode: 2, logPath: '/d/job-2.log' },
];
const RULE: StoredPermission = {
  id: 'p1',
  workspace: '/w',
  tool: 'run_command',
  pattern: 'npm test *',
  match: 'prefix',
  effect: 'allow',
  by: 'ana',
  createdAt: '2026-01-01T10:00:00.000Z',
};
const RECORD: AuditRecord = {
  id: 'a1',
  ts: '2026-01-01T10:00:00.000Z',
  sessionId: 's1',
  callId: 'c1',
  tool: 'run_command',
  danger: 'dangerous',
  args: { command: 'npm test' },
  resultSummary: '\nexit code 1: 2 failing\nmore',
  isError: true,
  durationMs: 1234,
  decision: 'allow_once',
  decidedBy: 'ana',
};
const press = (ch: string, name = ch) => ({ ch, name, ctrl: false, meta: false });

describe('panel contents', () => {
  it('jobs: newest first, status and log; a driver may stop, a viewer reads', () => {
    const driver = jobsContent(JOBS, 'driver');
    expect(driver.title).toBe('background jobs · 1 running · 2 in all');
    expect(driver.rows.map((row) => row.key)).toEqual(['job-2', 'job-1']);
    expect(driver.rows[0]?.text).toMatch(/^job-2 +exited 2 .* make$/);
    expect(driver.rows[1]?.detail).toBe('log: /d/job-1.log');
    expect(driver.actions.map((action) => action.key)).toEqual(['x']);
    const viewer = jobsContent(JOBS, 'viewer');
    expect(viewer.actions).toEqual([]);
    expect(viewer.note).toContain('read-only');
  });

  it('permissions: effect, tool, pattern, who and when', () => {
    const content = permissionsContent([RULE, { ...RULE, id: 'p2', effect: 'deny', tool: 'write_file', pattern: undefined, match: 'tool' }], 'driver');
    expect(content.rows[0]?.text).toMatch(/^allow run_command +npm test \* \(prefix\) {2}by ana {2}2026-01-01 \d\d:00$/);
    expect(content.rows[1]?.text).toContain('deny  write_file');
    expect(content.rows[1]?.text).toContain('(whole tool)');
    expect(content.rows[1]?.tone).toBe('bad');
    expect(content.actions.map((a) => a.key)).toEqual(['r']);
    expect(permissionsContent(undefined, 'driver').rows).toEqual([]);
  });

  it('audit: newest first; time, tool, danger, decision by, duration, outcome, first line of the result', () => {
    const content = auditContent([
      RECORD,
      { ...RECORD, id: 'a2', ts: '2026-01-01T11:00:00.000Z', isError: false, durationMs: 35, decidedBy: undefined, decision: 'auto' },
    ]);
    expect(content.rows.map((row) => row.key)).toEqual(['a2', 'a1']);
    const row = content.rows[1]?.text ?? '';
    expect(row).toMatch(/run_command +dangerous +allow_once by ana +1\.2s ERROR exit code 1: 2 failing$/);
    expect(content.rows[0]?.text).toMatch(/auto +35ms OK/);
    expect(content.rows[1]?.detail).toBe('c1 · args {"command":"npm test"}');
  });

  it('memory: MEMORY.md in full, then the tail of HISTORY.md', () => {
    const history = Array.from({ length: HISTORY_TAIL_LINES + 10 }, (_, i) => `entry ${i}`).join('\n');
    const content = memoryContent({ memory: '# Facts\n- uses pnpm\n', history });
    const texts = content.rows.map((row) => row.text);
    expect(texts.slice(0, 3)).toEqual(['── MEMORY.md ──', '# Facts', '- uses pnpm']);
    expect(texts).toContain(`── HISTORY.md (last ${HISTORY_TAIL_LINES} of ${HISTORY_TAIL_LINES + 10} lines) ──`);
    expect(texts).not.toContain('entry 9');
    expect(texts.at(-1)).toBe(`entry ${HISTORY_TAIL_LINES + 9}`);
    expect(content.selectable).toBe(false);
    expect(memoryContent({ memory: '', history: '' }).rows.map((row) => row.text)).toEqual(['── MEMORY.md ──', '(empty)', '', '── HISTORY.md ──', '(empty)']);
  });

  it('memory: recall items by kind between MEMORY.md and HISTORY.md', () => {
    const items = [
      { id: 'n1', kind: 'note' as const, text: 'tests run with pnpm' },
      { id: 'p1', kind: 'profile' as const, text: 'prefers short answers' },
    ];
    expect(memoryContent({ memory: '', history: '', items }).rows.map((row) => row.text)).toEqual([
      '── MEMORY.md ──',
      '(empty)',
      '',
      '── user profile ──',
      '- prefers short answers  (p1)',
      '',
      '── agent notes ──',
      '- tests run with pnpm  (n1)',
      '',
      '── HISTORY.md ──',
      '(empty)',
    ]);
  });
});

describe('panel keys', () => {
  const content = jobsContent(JOBS, 'driver');
  it('Esc and q close, arrows move, the action key acts, g refreshes', () => {
    expect(panelKey(press('', 'escape'), content)).toEqual({ kind: 'close' });
    expect(panelKey(press('q'), content)).toEqual({ kind: 'close' });
    expect(panelKey(press('', 'down'), content)).toEqual({ kind: 'move', to: 'down' });
    expect(panelKey(press('x'), content)).toMatchObject({ kind: 'action', action: { name: 'stop_job' } });
    expect(panelKey(press('x'), jobsContent(JOBS, 'viewer'))).toEqual({ kind: 'none' });
    expect(panelKey(press('g'), content)).toEqual({ kind: 'refresh' });
    expect(panelKey({ ch: 'x', name: 'x', ctrl: true, meta: false }, content)).toEqual({ kind: 'none' });
  });

  it('moves stay inside the list', () => {
    expect(moveSelection(0, 'up', 5, 3)).toBe(0);
    expect(moveSelection(4, 'down', 5, 3)).toBe(4);
    expect(moveSelection(1, 'page_down', 5, 3)).toBe(4);
    expect(moveSelection(3, 'first', 5, 3)).toBe(0);
    expect(moveSelection(0, 'last', 5, 3)).toBe(4);
    expect(moveSelection(0, 'down', 0, 3)).toBe(0);
  });

  it('a forbidden answer says the control token is needed', () => {
    const err = Object.assign(new Error('permissions:list needs the control token'), { code: 'forbidden' });
    expect(failure('permissions', err)).toMatch(/^stored permissions: needs the control token, and this client attached with the view token/);
    expect(failure('audit', new Error('timeout'))).toBe('timeout');
  });
});
