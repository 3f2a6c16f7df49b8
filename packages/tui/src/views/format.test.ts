import { describe, expect, it } from 'vitest';
import { emptyEditor } from '../input/line-editor.js';
import { initialState } from '../state/reducer.js';
import type { PendingPermission, TranscriptItem, ViewState } from '../state/types.js';
import { formatPermission } from './format-permission.js';
import { formatHelp, formatStatus, shortUrl, tokens } from './format-status.js';
import { formatRunCall, formatTranscript, MAX_TRANSCRIPT_LINES } from './format-transcript.js';
import { formatInput } from './input-view.js';
import { plain } from './plain-text.test-helper.js';

describe('transcript formatting', () => {
  it('formats a run summary like the seed: [1] run_command("go test") → OK (2.1s)', () => {
    expect(formatRunCall({ callId: 'c', tool: 'run_command', summary: 'go test', status: 'ok', durationMs: 2100 }, 0)).toBe(
      '[1] run_command("go test") → OK (2.1s)',
    );
    expect(formatRunCall({ callId: 'c', tool: 'read_file', summary: 'a.ts', status: 'error', durationMs: 12 }, 1)).toBe('[2] read_file("a.ts") → ERROR (12ms)');
  });

  it('escapes braces that came from the model so they are not read as tags', () => {
    const items: TranscriptItem[] = [{ kind: 'assistant', turnId: 't', text: 'use {red-fg} here', final: true }];
    const [line] = formatTranscript(items);
    expect(line).not.toContain('{red-fg}');
    expect(plain(line ?? '')).toBe('use {red-fg} here');
  });

  it('shows who sent a message, live command output and results', () => {
    const items: TranscriptItem[] = [
      { kind: 'user', seq: 1, text: 'hi', by: 'bo@pc', steer: true },
      {
        kind: 'tool',
        turnId: 't',
        callId: 'c',
        tool: 'run_command',
        summary: 'ls',
        danger: 'dangerous',
        status: 'running',
        live: { lines: ['a.txt'], current: 'b.t', carry: '', dropped: 0 },
      },
    ];
    expect(formatTranscript(items).map(plain)).toEqual(['', 'bo@pc ↪ steer › hi', '⚙ run_command ls [dangerous]', '  │ a.txt', '  │ b.t', '  … running']);
  });

  it('keeps at most MAX_TRANSCRIPT_LINES lines, the newest', () => {
    const items: TranscriptItem[] = Array.from({ length: 2000 }, (_, i) => ({ kind: 'assistant', turnId: 't', text: `a${i}\nb${i}`, final: true }));
    const lines = formatTranscript(items);
    expect(lines).toHaveLength(MAX_TRANSCRIPT_LINES);
    expect(lines.at(-1)).toBe('b1999');
  });
});

describe('status and help', () => {
  const state: ViewState = {
    ...initialState({ url: 'http://127.0.0.1:7777', me: 'ana', role: 'driver' }),
    connection: { status: 'connected' },
    session: { id: 'abcdef123456', title: 'demo', cwd: '/w', model: 'openai/a', mode: 'ask' },
    model: 'openai/b',
    presence: [
      { id: '1', name: 'ana', role: 'driver' },
      { id: '2', name: 'bo', role: 'viewer' },
    ],
    turn: { phase: 'running_tool', turnId: 't', tool: 'run_command', toolKind: 'execute' },
    context: { percent: 42.4, usedTokens: 1, windowTokens: 2 },
    lastUsage: { inputTokens: 250, outputTokens: 25 },
  };

  it('shows connection, session, model, role, others, turn, context and usage', () => {
    const line = plain(formatStatus(state, 0));
    for (const part of ['● local:7777', 'demo abcdef12', 'openai/b', 'driver', 'with bo (viewer)', '⠋ running run_command', 'ctx 42%', 'in 250 out 25']) {
      expect(line).toContain(part);
    }
    expect(line).not.toContain('with ana');
    expect(line.indexOf('running run_command')).toBeLessThan(line.indexOf('with bo'));
    // Tokens before who else is attached: a narrow terminal cuts from the right.
    expect(line.indexOf('out 25')).toBeLessThan(line.indexOf('with bo'));
  });

  it('shows command-input mode before the turn, and running background jobs', () => {
    const jobs = [{ jobId: 'j', command: 'x', startedAt: '', status: 'running' as const, logPath: '/l' }];
    const line = plain(formatStatus({ ...state, commandFocus: 'c1', jobs }, 0));
    expect(line).toContain('⌨ typing into command');
    expect(line.indexOf('⌨ typing')).toBeLessThan(line.indexOf('running run_command'));
    expect(line).toContain('1 job (F3)');
    expect(plain(formatHelp({ ...state, commandFocus: 'c1' }))).toContain('Ctrl-T or Esc back to chat');
    expect(plain(formatHelp(state))).toContain('Ctrl-T type into command');
  });

  it('shortens a loopback URL, keeps any other host', () => {
    expect([shortUrl('http://127.0.0.1:7777'), shortUrl('http://localhost:80/'), shortUrl('https://tandem.example:443')]).toEqual([
      'local:7777',
      'local:80',
      'tandem.example:443',
    ]);
  });

  it('shortens token counts', () => {
    expect([tokens(950), tokens(12_714), tokens(250_000), tokens(1_300_000)]).toEqual(['950', '12.7k', '250k', '1.3M']);
  });

  it('says why the connection is down', () => {
    const line = plain(formatStatus({ ...state, connection: { status: 'refused', reason: 'unauthorized', message: 'refused by x: unauthorized' } }, 0));
    expect(line).toContain('refused by x: unauthorized');
  });

  it('offers cancel while a turn runs and quit when idle', () => {
    expect(plain(formatHelp(state))).toContain('Ctrl-C cancel turn');
    expect(plain(formatHelp({ ...state, turn: { phase: 'idle' } }))).toContain('Ctrl-C quit');
  });
});

describe('permission dialog', () => {
  const request: PendingPermission = {
    seq: 4,
    requestId: 'r',
    callId: 'c',
    tool: 'run_command',
    args: { command: 'rm -r build' },
    danger: 'dangerous',
    expiresAt: '2026-01-01T00:01:00.000Z',
  };
  const now = Date.parse('2026-01-01T00:00:18.200Z');

  it('shows the command verbatim, the danger, a countdown and the five answers', () => {
    const text = formatPermission(request, { role: 'driver', now, more: 0 }).map(plain).join('\n');
    expect(text).toContain('Permission needed: run_command  [DANGEROUS]');
    expect(text).toContain('command: rm -r build');
    expect(text).toContain('auto-deny in 42 s');
    for (const answer of ['[y] allow once', '[s] allow for this session', '[a] allow forever', '[n] deny once', '[d] deny forever']) {
      expect(text).toContain(answer);
    }
  });

  it('shows which scope a lasting decision applies to', () => {
    const scoped = { ...request, scopes: ['rm -r build', 'rm -r *', 'rm *'] };
    const first = formatPermission(scoped, { role: 'driver', now, more: 0 }).map(plain).join('\n');
    expect(first).toContain('s / a / d apply to: [rm -r build] · rm -r * · rm *   (Tab: another scope)');
    const third = formatPermission(scoped, { role: 'driver', now, more: 0, scopeIndex: 5 }).map(plain).join('\n');
    expect(third).toContain('rm -r build · rm -r * · [rm *]');
  });

  it('does not repeat a preview that is just the command', () => {
    const text = formatPermission({ ...request, preview: 'rm -r build' }, { role: 'driver', now, more: 0 })
      .map(plain)
      .join('\n');
    expect(text).not.toContain('preview:');
  });

  it('is read-only for a viewer and shows a diff preview', () => {
    const edit: PendingPermission = {
      ...request,
      tool: 'edit_file',
      danger: 'medium',
      args: { path: 'a.ts', old_str: 'x', new_str: 'y' },
      preview: '@@ -1 +1 @@\n-x\n+y',
    };
    const text = formatPermission(edit, { role: 'viewer', now, more: 1 }).map(plain).join('\n');
    expect(text).toContain('path: a.ts');
    expect(text).toContain('-x\n+y');
    expect(text).toContain('watch-only');
    expect(text).toContain('(+1 more waiting)');
    expect(text).not.toContain('[y]');
  });
});

describe('input line', () => {
  it('draws the cursor and the watch-only notice', () => {
    const editor = { ...emptyEditor(), text: 'abc', cursor: 1 };
    expect(formatInput(editor, 40, { viewer: false })).toContain('a{inverse}b{/inverse}c');
    expect(plain(formatInput(editor, 40, { viewer: true }))).toContain('watch-only');
  });

  it('scrolls a long line so the cursor stays visible', () => {
    const text = `${'x'.repeat(200)}END`;
    const shown = plain(formatInput({ ...emptyEditor(), text, cursor: text.length }, 40, { viewer: false }));
    expect(shown).toContain('END');
    expect(shown.length).toBeLessThanOrEqual(40);
  });
});
