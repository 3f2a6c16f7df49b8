import { describe, expect, it } from 'vitest';
import { initialState, reduce } from '../state/reducer.js';
import type { PendingPermission, ViewState } from '../state/types.js';
import { fitParts, visibleWidth } from './fit-line.js';
import { formatPermission, rowsOf } from './format-permission.js';
import { formatHelp, formatStatus } from './format-status.js';

const plain = (text: string) => text.replace(/\{(open|close)\}/g, (_m, which: string) => (which === 'open' ? '{' : '}')).replace(/\{\/?[a-z-]*\}/g, '');

describe('one-line bars shorten instead of being cut', () => {
  it('drops the least important parts first and keeps the order', () => {
    const parts = [
      { text: 'conn', priority: 10 },
      { text: 'title', priority: 4 },
      { text: 'turn', priority: 9 },
      { text: 'others', priority: 0 },
    ];
    expect(fitParts(parts, 100, ' | ', '')).toBe('conn | title | turn | others');
    expect(fitParts(parts, 20, ' | ', '')).toBe('conn | title | turn');
    expect(fitParts(parts, 12, ' | ', '')).toBe('conn | turn');
    expect(
      fitParts(
        [
          { text: 'a long part', priority: 1, short: 'short' },
          { text: 'x', priority: 5 },
        ],
        10,
        ' | ',
        '',
      ),
    ).toBe('short | x');
  });

  it('counts tags as nothing and escaped braces as one column', () => {
    expect(visibleWidth('{bold}ab{/bold}{open}c{close}')).toBe(5);
  });

  const session = {
    id: 'abcdef123456',
    title: 'a rather long session title',
    cwd: '/w',
    model: 'anthropic/claude-sonnet-4-5',
    createdAt: '2026-01-01T00:00:00.000Z',
    status: 'idle' as const,
    lastSeq: 0,
    mode: 'auto-edit' as const,
    sandbox: 'bubblewrap',
  };
  const state: ViewState = {
    ...reduce(initialState({ url: 'http://127.0.0.1:7777', me: 'ana', role: 'driver' }), { kind: 'attached', session, role: 'driver' }),
    connection: { status: 'connected' },
    presence: [{ id: 'x', name: 'bo@desktop', role: 'viewer' }],
    lastUsage: { inputTokens: 12_700, outputTokens: 47 },
    context: { percent: 12, usedTokens: 1, windowTokens: 2 },
  };

  it('the status line shows mode and sandbox, and fits 60 columns keeping connection, mode and turn', () => {
    const wide = plain(formatStatus(state, 0, { width: 200 }));
    expect(wide).toContain('auto-edit');
    expect(wide).toContain('sandbox bwrap');
    expect(wide).toContain('with bo@desktop (viewer)');
    const narrow = plain(formatStatus(state, 0, { width: 60 }));
    expect(narrow.length).toBeLessThanOrEqual(60);
    expect(narrow).toContain('● local:7777');
    expect(narrow).toContain('auto-edit');
    expect(narrow).toContain('idle');
    expect(narrow).not.toContain('bo@desktop');
    expect(plain(formatStatus({ ...state, session: { ...state.session!, sandbox: 'off: no bwrap' } }, 0, { width: 200 }))).toContain('no sandbox');
  });

  it('a lost connection counts down to the next attempt', () => {
    const lost: ViewState = {
      ...state,
      connection: { status: 'reconnecting', attempt: 3, reason: 'server not reachable (connection refused)', retryAt: 10_500 },
    };
    expect(plain(formatStatus(lost, 0, { now: 8_000, width: 200 }))).toContain(
      '○ http://127.0.0.1:7777 lost: server not reachable (connection refused) · retry 3 in 3 s',
    );
    expect(plain(formatStatus(lost, 0, { now: 8_000, width: 40 }))).toContain('○ lost · retry in 3 s');
  });

  it('the key hints fit 60 columns', () => {
    for (const width of [60, 80, 120]) expect(plain(formatHelp(state, { width })).length).toBeLessThanOrEqual(width);
    expect(plain(formatHelp(state, { width: 200 }))).toContain('Shift-Tab mode');
  });
});

describe('the permission dialog on a small screen', () => {
  const long = Array.from({ length: 30 }, (_, i) => `echo line-${i}`).join('\n');
  const request: PendingPermission = {
    seq: 1,
    requestId: 'r',
    callId: 'c',
    tool: 'run_command',
    args: { command: long },
    danger: 'dangerous',
    expiresAt: '2026-01-01T00:01:00.000Z',
    // One scope per segment, as the server offers for a compound command.
    scopes: [long, ...Array.from({ length: 30 }, (_, i) => `echo line-${i}`), 'echo *'],
  };

  it('keeps title, scope, countdown, every choice and the focus line within 60x15', () => {
    // 60 columns: a full-width dialog (56 inside); 15 rows: 12 above the status line, 10 inside the border.
    const lines = formatPermission(request, { role: 'driver', now: Date.parse('2026-01-01T00:00:30.000Z'), more: 0, focus: 'ready', width: 56, maxLines: 10 });
    expect(rowsOf(lines, 56)).toBeLessThanOrEqual(10);
    const text = lines.map(plain).join('\n');
    for (const part of [
      'Permission needed: run_command',
      'apply to:',
      'auto-deny in 30 s',
      '(+29 more)',
      '[y] once',
      '[s] session',
      '[a] forever',
      '[n] deny once',
      '[d] deny forever',
      'F2 or Enter on empty line: answer here',
    ]) {
      expect(text).toContain(part);
    }
    expect(text).toMatch(/… \(\d+ more lines; a taller terminal shows them\)/);
  });

  it('says whose the keys are', () => {
    const at = (focus: 'focused' | 'too_soon' | 'input_has_text') =>
      formatPermission(request, { role: 'driver', now: 0, more: 0, focus, width: 90 }).map(plain).join('\n');
    expect(at('focused')).toContain('▶ this dialog has the keys · Esc: back to the input line');
    expect(at('too_soon')).toContain('typing goes to the input line; F2 answers in a moment');
    expect(at('input_has_text')).toContain('the input line has text: send or clear it, then F2 answers here');
  });
});
