import type { SessionEvent, SessionInfo } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { FOCUS_DELAY_MS, dialogFocusView } from './input/dialog-focus.js';
import { panelContent } from './panels/panel-content.js';
import { FLASH_MS, HISTORY_PAGE } from './tui-controller.js';
import { attachedController, DEMO_SESSION, fakeHost } from './tui-controller.test-helper.js';

// The TUI's key handling without a terminal: a fake host records every request and owns the
// clock, so the dialog's half-second guard is tested by moving time, never by waiting.

const SESSION: SessionInfo = { ...DEMO_SESSION, mode: 'ask', sandbox: 'bubblewrap' };

interface Sent {
  command: string;
  payload: unknown;
}

function setup(role: 'driver' | 'viewer' = 'driver') {
  const sent: Sent[] = [];
  const clock = { now: 1_000_000 };
  const answers: Record<string, unknown> = {
    'jobs:list': { jobs: [] },
    'session:list': { sessions: [SESSION, { ...SESSION, id: 's2', cwd: '/w/other', createdAt: '2026-01-02T00:00:00.000Z' }] },
  };
  const switched: string[] = [];
  // The fake transcript is two pages tall: two PgUp from the bottom reach its top.
  const scrolled: number[] = [];
  let composed: string | null = null;
  const host = fakeHost({
    request: (command, payload) => {
      sent.push({ command, payload });
      return Promise.resolve((answers[command] ?? {}) as never);
    },
    now: () => clock.now,
    scroll: (pages) => {
      scrolled.push(pages);
    },
    atTop: () => scrolled.length > 0 && scrolled.reduce((sum, pages) => sum + pages, 0) <= -2,
    switchSession: (sessionId) => {
      switched.push(sessionId);
      return Promise.resolve();
    },
    compose: (text) => Promise.resolve(composed ?? text),
  });
  const { tui, event, type, press, askToRun } = attachedController(host, { session: SESSION, role });
  const ask = (requestId: string, scopes?: string[]) => askToRun(requestId, scopes ? { scopes } : {});
  const responses = () => sent.filter((entry) => entry.command === 'permission:respond');
  const setComposed = (text: string) => {
    composed = text;
  };
  return { tui, sent, clock, event, ask, type, press, responses, switched, setComposed, answers };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('the permission dialog cannot be answered by accident', () => {
  it('a message typed while the dialog appears stays in the input line and answers nothing', () => {
    const { tui, ask, type, clock, responses } = setup();
    type('yes ');
    ask('r1', ['rm -rf build', 'rm *']);
    // Keep typing, dialog keys included, well past the half second.
    type('s');
    clock.now += 2 * FOCUS_DELAY_MS;
    type('ad day');
    expect(responses()).toEqual([]);
    expect(tui.state.pendingPermissions.map((request) => request.requestId)).toEqual(['r1']);
    expect(tui.editor.text).toBe('yes sad day');
    expect(tui.dialog.focused).toBe(false);
  });

  it('typing from an empty line after the dialog appeared goes to the input line too', () => {
    const { tui, ask, type, clock, responses } = setup();
    ask('r1');
    clock.now += 10 * FOCUS_DELAY_MS;
    type('yd');
    expect(responses()).toEqual([]);
    expect(tui.editor.text).toBe('yd');
  });

  it('focus is refused in the first half second, and while the input line has text', () => {
    const { tui, ask, type, press, clock, responses } = setup();
    ask('r1');
    clock.now += FOCUS_DELAY_MS - 1;
    press('f2');
    expect(tui.dialog.focused).toBe(false);
    expect(tui.currentFlash()).toContain('just appeared');
    press('enter');
    expect(tui.dialog.focused).toBe(false);

    clock.now += 1;
    type('hello');
    expect(dialogFocusView(tui.dialog, clock.now, tui.editor.text)).toBe('input_has_text');
    press('f2');
    expect(tui.dialog.focused).toBe(false);
    expect(tui.currentFlash()).toContain('unsent text');
    type('y');
    expect(responses()).toEqual([]);
    expect(tui.editor.text).toBe('helloy');
  });

  it('F2 after the half second gives the dialog the keys; y answers once; Esc gives them back', () => {
    const { tui, ask, type, press, clock, responses } = setup();
    ask('r1');
    clock.now += FOCUS_DELAY_MS;
    expect(dialogFocusView(tui.dialog, clock.now, '')).toBe('ready');
    press('f2');
    expect(tui.dialog.focused).toBe(true);
    press('escape');
    expect(tui.dialog.focused).toBe(false);
    type('y');
    expect(responses()).toEqual([]);
    press('backspace');
    press('enter');
    expect(tui.dialog.focused).toBe(true);
    type('q');
    expect(tui.currentFlash()).toContain('y s a n d answer');
    type('y');
    expect(responses()).toEqual([{ command: 'permission:respond', payload: { sessionId: 's1', requestId: 'r1', decision: 'allow_once' } }]);
    // The answer gives the keys back: a second y types.
    type('y');
    expect(responses()).toHaveLength(1);
    expect(tui.editor.text).toBe('y');
  });

  it('the next request starts unfocused with its own half second, and Tab picks the scope for s', () => {
    const { tui, ask, event, type, press, clock, responses } = setup();
    ask('r1');
    clock.now += FOCUS_DELAY_MS;
    press('f2');
    ask('r2', ['npm test', 'npm *']);
    event({ type: 'permission_resolved', requestId: 'r1', decision: 'deny_once', by: 'bo' });
    expect(tui.state.pendingPermissions.map((request) => request.requestId)).toEqual(['r2']);
    expect(tui.dialog).toMatchObject({ requestId: 'r2', focused: false });
    press('f2');
    expect(tui.dialog.focused).toBe(false);
    clock.now += FOCUS_DELAY_MS;
    press('f2');
    press('tab');
    type('s');
    expect(responses()).toEqual([{ command: 'permission:respond', payload: { sessionId: 's1', requestId: 'r2', decision: 'allow_session', scope: 'npm *' } }]);
  });

  it('an open panel does not hide the dialog: F2 still takes focus and y answers', () => {
    const { tui, ask, type, press, clock, responses } = setup();
    press('f3');
    expect(tui.panels.panel?.kind).toBe('jobs');
    ask('r1');
    clock.now += FOCUS_DELAY_MS;
    type('y');
    expect(responses()).toEqual([]);
    press('f2');
    type('y');
    expect(responses()).toHaveLength(1);
  });

  it('a viewer never answers', () => {
    const { tui, ask, type, press, clock, responses } = setup('viewer');
    ask('r1');
    clock.now += FOCUS_DELAY_MS;
    press('f2');
    type('y');
    expect(responses()).toEqual([]);
    expect(tui.currentFlash()).toContain('watch-only');
  });
});

describe('slash commands and keys', () => {
  it('/clear asks first: n changes nothing, y clears via session:clear', () => {
    const { tui, type, press, sent } = setup();
    type('/clear');
    press('enter');
    expect(tui.confirm?.question).toContain('Clear the conversation');
    type('x');
    type('n');
    expect(tui.confirm).toBeNull();
    expect(sent.filter((entry) => entry.command === 'session:clear')).toEqual([]);
    expect(tui.currentFlash()).toContain('nothing was changed');
    type('/clear');
    press('enter');
    type('y');
    expect(sent.filter((entry) => entry.command === 'session:clear')).toEqual([{ command: 'session:clear', payload: { sessionId: 's1' } }]);
  });

  it('/model, /mode, /title and Shift-Tab configure the session; session_configured shows for everyone', () => {
    const { tui, type, press, sent, event } = setup();
    type('/model anthropic/claude-sonnet-4-5');
    press('enter');
    type('/mode read-only');
    press('enter');
    type('/title fix login');
    press('enter');
    press('tab', { shift: true });
    expect(sent.filter((entry) => entry.command === 'session:configure').map((entry) => entry.payload)).toEqual([
      { sessionId: 's1', model: 'anthropic/claude-sonnet-4-5' },
      { sessionId: 's1', mode: 'read-only' },
      { sessionId: 's1', title: 'fix login' },
      { sessionId: 's1', mode: 'auto-edit' },
    ]);
    event({ type: 'session_configured', by: 'bo', model: 'anthropic/claude-sonnet-4-5', mode: 'auto-edit' });
    expect(tui.state.session).toMatchObject({ model: 'anthropic/claude-sonnet-4-5', mode: 'auto-edit' });
    expect(tui.state.model).toBe('anthropic/claude-sonnet-4-5');
    expect(tui.state.items.at(-1)).toEqual({ kind: 'notice', level: 'info', text: 'model → anthropic/claude-sonnet-4-5, approval mode → auto-edit (by bo)' });
    type('/mode yolo');
    press('enter');
    expect(tui.state.items.at(-1)).toMatchObject({ level: 'warn', text: expect.stringContaining('not a mode') });
  });

  it('/search toggles search-only; the status line says so for everyone', () => {
    const { tui, type, press, sent, event } = setup();
    type('/search on');
    press('enter');
    type('/search maybe');
    press('enter');
    expect(tui.state.items.at(-1)).toMatchObject({ level: 'warn', text: '/search: "maybe" is not on or off' });
    expect(sent.filter((entry) => entry.command === 'session:configure').map((entry) => entry.payload)).toEqual([{ sessionId: 's1', searchOnly: true }]);
    event({ type: 'session_configured', by: 'bo', searchOnly: true });
    expect(tui.state.session).toMatchObject({ searchOnly: true });
    expect(tui.state.items.at(-1)).toEqual({ kind: 'notice', level: 'info', text: 'search only → on (web_search is the only tool) (by bo)' });
    type('/search');
    press('enter');
    expect(sent.filter((entry) => entry.command === 'session:configure').at(-1)?.payload).toEqual({ sessionId: 's1', searchOnly: false });
  });

  it('a message sent while disconnected comes back into the input line', () => {
    const { tui, type, press, sent } = setup();
    tui.onSignal({ kind: 'connection', connection: { status: 'reconnecting', attempt: 1, reason: 'transport close' } });
    type('hello');
    press('enter');
    expect(sent.filter((entry) => entry.command === 'session:send')).toEqual([]);
    expect(tui.editor.text).toBe('hello');
  });

  it('Ctrl-J puts a newline into the message; Enter sends it whole', () => {
    const { type, press, sent } = setup();
    type('one');
    press('linefeed');
    type('two');
    press('enter');
    expect(sent.filter((entry) => entry.command === 'session:send').map((entry) => entry.payload)).toEqual([{ sessionId: 's1', text: 'one\ntwo' }]);
  });

  it('Ctrl-G puts what the editor wrote into the input line', async () => {
    const { tui, type, setComposed } = setup();
    type('draft');
    setComposed('line one\nline two\n');
    tui.key({ name: 'g', ctrl: true, meta: false });
    await flush();
    expect(tui.editor.text).toBe('line one\nline two');
  });

  it('the session chooser lists sessions and Enter switches to the selected one', async () => {
    const { tui, press, switched } = setup();
    press('f7');
    await flush();
    const content = panelContent(tui.panels.panel!, tui.state);
    expect(content.rows.map((row) => row.key)).toEqual(['s2', 's1']);
    expect(content.rows[1]?.text).toMatch(/^\* s1 +idle +demo +openai\/gpt-4\.1-mini +\/w\/demo$/);
    press('enter');
    await flush();
    expect(switched).toEqual(['s2']);
    expect(tui.panels.panel).toBeNull();
  });

  it("a viewer's permissions and audit panels say once that they need the control token, without asking the server", () => {
    const { tui, press, sent } = setup('viewer');
    press('f4');
    const content = panelContent(tui.panels.panel!, tui.state);
    expect(content.rows).toEqual([]);
    expect(content.empty).toContain('needs the control token');
    expect(tui.panels.panel?.message).toBeNull();
    expect(sent.filter((entry) => entry.command === 'permissions:list')).toEqual([]);
  });

  it('flashes end by the clock', () => {
    const { tui, clock } = setup();
    tui.showFlash('hi');
    expect(tui.currentFlash()).toBe('hi');
    clock.now += FLASH_MS;
    expect(tui.currentFlash()).toBeUndefined();
  });
});

describe('older history on scroll-to-top', () => {
  const at = (seq: number, body: Record<string, unknown>) =>
    ({ kind: 'event', event: { sessionId: 's1', seq, ts: '2026-01-01T00:00:00.000Z', ...body } as SessionEvent }) as const;

  it('PgUp at the top asks for the page before the oldest event shown, once, and puts it above', async () => {
    const { tui, press, sent, answers } = setup();
    // Attached with a tail: events from seq 501 on, older ones exist.
    tui.onSignal({ kind: 'attached', session: SESSION, role: 'driver', replayed: 2, history: { firstSeq: 501, hasMore: true } });
    tui.onSignal(at(501, { type: 'tool_result', callId: 'c9', tool: 'read_file', output: 'x', isError: false, durationMs: 1 }));
    tui.onSignal(at(502, { type: 'user_message', text: 'newest question', by: 'ana' }));
    const history = () => sent.filter((entry) => entry.command === 'session:history');

    press('pageup');
    expect(history()).toEqual([]);
    answers['session:history'] = {
      events: [
        { sessionId: 's1', seq: 499, ts: '2026-01-01T00:00:00.000Z', type: 'user_message', text: 'older question', by: 'bo' },
        { sessionId: 's1', seq: 500, ts: '2026-01-01T00:00:00.000Z', type: 'assistant_text', turnId: 't0', iteration: 1, text: 'older answer' },
      ],
      hasMore: true,
      firstSeq: 499,
    };
    press('pageup');
    press('pageup'); // still loading: no second request
    expect(history()).toEqual([{ command: 'session:history', payload: { sessionId: 's1', beforeSeq: 501, limit: HISTORY_PAGE } }]);
    await flush();
    const texts = tui.state.items.map((item) => ('text' in item ? item.text : item.kind));
    expect(texts.slice(0, 2)).toEqual(['older question', 'older answer']);
    expect(texts).toContain('newest question');
    // The live view is untouched: the last seq is still the newest.
    expect(tui.state.lastSeq).toBe(502);

    answers['session:history'] = { events: [], hasMore: false };
    press('pageup');
    expect(history().at(-1)?.payload).toEqual({ sessionId: 's1', beforeSeq: 499, limit: HISTORY_PAGE });
    await flush();
    press('pageup');
    expect(history()).toHaveLength(2);
  });

  it('a full replay (no tail) never asks for history', () => {
    const { press, sent } = setup();
    press('pageup');
    press('pageup');
    press('pageup');
    expect(sent.filter((entry) => entry.command === 'session:history')).toEqual([]);
  });
});
