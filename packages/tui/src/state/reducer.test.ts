import type { SessionEvent, SessionInfo } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { MAX_ITEMS, excerpt, reduce } from './reducer.js';
import { attachedState, type Body, foldEvents, stamp, toolCall } from './session-events.test-helper.js';
import type { ToolItem, ViewState } from './types.js';
import { formatItem } from '../views/format-transcript.js';
import { DEMO_SESSION } from '../tui-controller.test-helper.js';

const SESSION: SessionInfo = { ...DEMO_SESSION, cwd: '/work/demo' };

const start = (): ViewState => attachedState(SESSION);
const fold = (events: SessionEvent[], state = start()): ViewState => foldEvents(state, events);

/** A whole turn: a question, a streamed preamble, a command with live output, a streamed answer. */
const TURN: Body[] = [
  { type: 'user_message', text: 'run the tests', by: 'ana@box', mode: 'turn' },
  { type: 'turn_started', turnId: 't1', model: 'openai/gpt-4.1-mini' },
  { type: 'thinking', turnId: 't1' },
  { type: 'text_delta', turnId: 't1', delta: 'Running ' },
  { type: 'text_delta', turnId: 't1', delta: 'them.' },
  { type: 'assistant_text', turnId: 't1', iteration: 1, text: 'Running them.' },
  toolCall('c1', 'run_command', 'execute', 'go test ./...', { command: 'go test ./...' }, 'dangerous'),
  { type: 'command_output', callId: 'c1', data: '\x1b[32mok\x1b[0m  pkg/a\r\n' },
  { type: 'command_output', callId: 'c1', data: 'ok  pkg/b\r\n' },
  { type: 'tool_result', turnId: 't1', callId: 'c1', tool: 'run_command', isError: false, output: 'ok  pkg/a\nok  pkg/b\nexit code 0', durationMs: 2100 },
  { type: 'usage', turnId: 't1', model: 'openai/gpt-4.1-mini', inputTokens: 100, outputTokens: 20 },
  { type: 'thinking', turnId: 't1' },
  { type: 'text_delta', turnId: 't1', delta: 'All ' },
  { type: 'text_delta', turnId: 't1', delta: 'green.' },
  { type: 'assistant_text', turnId: 't1', iteration: 2, text: 'All green.' },
  { type: 'usage', turnId: 't1', model: 'openai/gpt-4.1-mini', inputTokens: 150, outputTokens: 5 },
  { type: 'turn_done', turnId: 't1', iterations: 2, outcome: 'answered' },
];

describe('reduce: a turn', () => {
  it('shows the user message, streamed text, the tool call and a run summary', () => {
    const state = fold(stamp(TURN));
    expect(state.items.map((item) => item.kind)).toEqual(['user', 'assistant', 'tool', 'assistant', 'run_summary']);
    expect(state.items[0]).toMatchObject({ kind: 'user', text: 'run the tests', by: 'ana@box', steer: false });
    expect(state.items[1]).toMatchObject({ text: 'Running them.', final: true });
    const tool = state.items[2] as ToolItem;
    expect(tool).toMatchObject({ tool: 'run_command', summary: 'go test ./...', status: 'ok', durationMs: 2100 });
    expect(tool.live?.lines).toEqual(['ok  pkg/a', 'ok  pkg/b']);
    expect(tool.result).toEqual({ lines: ['ok  pkg/a', 'ok  pkg/b', 'exit code 0'], omitted: 0, from: 'tail' });
    expect(state.items[4]).toMatchObject({
      kind: 'run_summary',
      model: 'openai/gpt-4.1-mini',
      iterations: 2,
      outcome: 'answered',
      calls: [{ tool: 'run_command', summary: 'go test ./...', status: 'ok', durationMs: 2100 }],
    });
    expect(state.turn.phase).toBe('idle');
    expect(state.lastUsage).toEqual({ inputTokens: 250, outputTokens: 25 });
    expect(state.lastSeq).toBe(stamp(TURN).at(-1)?.seq);
  });

  it('tracks the turn phase as events arrive', () => {
    const events = stamp(TURN);
    const phaseAfter = (count: number) => fold(events.slice(0, count)).turn.phase;
    expect(phaseAfter(1)).toBe('idle');
    expect(phaseAfter(2)).toBe('thinking');
    expect(phaseAfter(4)).toBe('writing');
    expect(phaseAfter(7)).toBe('running_tool');
    expect(fold(events.slice(0, 7)).turn.tool).toBe('run_command');
    expect(phaseAfter(10)).toBe('thinking');
  });

  it('keeps streamed text open until assistant_text finalises it', () => {
    const state = fold(stamp(TURN).slice(0, 5));
    expect(state.items.at(-1)).toMatchObject({ kind: 'assistant', text: 'Running them.', final: false });
  });

  it('marks a steering message', () => {
    const state = fold(stamp([{ type: 'user_message', text: 'also lint', by: 'bo@pc', mode: 'steer' }]));
    expect(state.items[0]).toMatchObject({ kind: 'user', by: 'bo@pc', steer: true });
  });
});

describe('reduce: replay and duplicates', () => {
  it('gives the same transcript from a replay (no deltas) as from the live stream', () => {
    const live = stamp(TURN);
    const replay = live.filter((event) => !event.ephemeral);
    const fromLive = fold(live);
    const fromReplay = fold(replay);
    expect(fromReplay.items).toEqual(fromLive.items);
    expect(fromReplay.lastSeq).toBe(fromLive.lastSeq);
    expect(fromReplay.turn).toEqual(fromLive.turn);
    expect(fromReplay.lastUsage).toEqual(fromLive.lastUsage);
  });

  it('ignores events at or below the last seq seen', () => {
    const events = stamp(TURN).filter((event) => !event.ephemeral);
    const once = fold(events);
    const overlapping = fold([...events.slice(0, 8), ...events.slice(3)]);
    expect(overlapping.items).toEqual(once.items);
    expect(fold(events, once)).toEqual(once);
  });

  it('picks up mid-stream after a reattach: the partial text is re-sent whole', () => {
    const events = stamp(TURN);
    // Live until the first delta, then the connection drops.
    let state = fold(events.slice(0, 4));
    expect(state.items.at(-1)).toMatchObject({ text: 'Running ', final: false });
    state = reduce(state, { kind: 'attached', session: SESSION, role: 'driver' });
    const partial: SessionEvent = { ...(events[4] as SessionEvent), type: 'text_delta', delta: 'Running them.' } as SessionEvent;
    state = fold([partial, ...events.slice(5)], state);
    expect(state.items).toEqual(fold(events).items);
  });

  it('ignores events of another session', () => {
    const state = fold(stamp([{ type: 'user_message', text: 'hi', by: 'x', mode: 'turn' }], 'other'));
    expect(state.items).toEqual([]);
    expect(state.lastSeq).toBe(0);
  });

  it('starts over when attached to a different session', () => {
    const state = fold(stamp(TURN));
    const other = reduce(state, { kind: 'attached', session: { ...SESSION, id: 's2', model: 'anthropic/claude' }, role: 'viewer' });
    expect(other.items).toEqual([]);
    expect(other.lastSeq).toBe(0);
    expect(other.role).toBe('viewer');
    expect(other.model).toBe('anthropic/claude');
  });

  it('keeps at most MAX_ITEMS transcript items', () => {
    const bodies: Body[] = Array.from({ length: MAX_ITEMS + 50 }, (_, i) => ({ type: 'user_message', text: `m${i}`, by: 'a', mode: 'turn' }) as Body);
    const state = fold(stamp(bodies));
    expect(state.items).toHaveLength(MAX_ITEMS);
    expect(state.items[0]).toMatchObject({ text: 'm50' });
    expect(state.items.at(-1)).toMatchObject({ text: `m${MAX_ITEMS + 49}` });
  });
});

describe('excerpt', () => {
  it('keeps the last lines of a command and the first of anything else, without blank ends', () => {
    const output = '\n\n> test\n> node --test\n\nok 1 - adds\n# pass 1\n# fail 0\n\n';
    expect(excerpt(output, 'tail')).toEqual({ lines: ['', 'ok 1 - adds', '# pass 1', '# fail 0'], omitted: 2, from: 'tail' });
    expect(excerpt(output, 'head')).toEqual({ lines: ['> test', '> node --test', '', 'ok 1 - adds'], omitted: 2, from: 'head' });
    expect(excerpt('  \n', 'head')).toEqual({ lines: [], omitted: 0, from: 'head' });
  });
});

describe('reduce: permissions', () => {
  const ASK: Body[] = [
    { type: 'turn_started', turnId: 't1', model: 'm' },
    toolCall('c1', 'run_command', 'execute', 'rm -r build', { command: 'rm -r build' }, 'dangerous'),
    {
      type: 'permission_request',
      requestId: 'r1',
      callId: 'c1',
      tool: 'run_command',
      summary: 'rm -r build',
      args: { command: 'rm -r build' },
      danger: 'dangerous',
      expiresAt: '2026-01-01T00:01:00.000Z',
    },
  ];

  it('holds a request until it is resolved, then says who answered', () => {
    const asked = fold(stamp(ASK));
    expect(asked.turn.phase).toBe('waiting_permission');
    expect(asked.pendingPermissions).toEqual([
      expect.objectContaining({ requestId: 'r1', tool: 'run_command', danger: 'dangerous', expiresAt: '2026-01-01T00:01:00.000Z' }),
    ]);
    const resolved = fold(
      stamp([...ASK, { type: 'permission_resolved', requestId: 'r1', decision: 'allow_session', by: 'ana@box', reason: 'answered', scope: 'rm -r *' }]),
    );
    expect(resolved.pendingPermissions).toEqual([]);
    expect(resolved.turn.phase).toBe('running_tool');
    expect(resolved.lastResolved).toEqual({ requestId: 'r1', tool: 'run_command', decision: 'allow_session', by: 'ana@box' });
    expect(resolved.items.at(-1)).toMatchObject({
      kind: 'tool',
      callId: 'c1',
      permission: { text: 'allowed for this session (rm -r *) by ana@box', allowed: true },
    });
  });

  it('reports a timeout as a denial with its reason', () => {
    const state = fold(stamp([...ASK, { type: 'permission_resolved', requestId: 'r1', decision: 'deny_once', by: 'server', reason: 'timeout' }]));
    expect(state.items.at(-1)).toMatchObject({ kind: 'tool', permission: { text: 'denied once by server (timeout)', allowed: false } });
  });

  it('says who answered in a notice when the tool call is not on screen', () => {
    const state = fold(stamp([...ASK.slice(2), { type: 'permission_resolved', requestId: 'r1', decision: 'deny_forever', by: 'ana@box' }]));
    expect(state.items.at(-1)).toMatchObject({ kind: 'notice', level: 'warn', text: 'permission for run_command rm -r build: denied forever by ana@box' });
  });

  it('does not list the same request twice', () => {
    const events = stamp(ASK);
    const again = { ...(events[2] as SessionEvent), seq: 99 } as SessionEvent;
    expect(fold([...events, again]).pendingPermissions).toHaveLength(1);
  });
});

describe('reduce: status and notices', () => {
  it('shows the model that actually answered, including a fallback', () => {
    const state = fold(
      stamp([
        { type: 'turn_started', turnId: 't1', model: 'openai/gpt-4.1' },
        { type: 'model_fallback', from: 'openai/gpt-4.1', to: 'anthropic/claude-sonnet-4-5', reason: 'rate limited' },
        { type: 'turn_done', turnId: 't1', iterations: 1 },
      ]),
    );
    expect(state.model).toBe('anthropic/claude-sonnet-4-5');
    expect(state.items[0]).toMatchObject({ level: 'warn', text: 'model fallback: openai/gpt-4.1 → anthropic/claude-sonnet-4-5 (rate limited)' });
    expect(state.items[1]).toMatchObject({ kind: 'run_summary', model: 'anthropic/claude-sonnet-4-5' });
  });

  it('tracks presence, context use and compaction', () => {
    const state = fold(
      stamp([
        {
          type: 'presence',
          clients: [
            { id: 'a', name: 'ana@box', role: 'driver' },
            { id: 'b', name: 'bo@pc', role: 'viewer' },
          ],
        },
        { type: 'context_usage', usedTokens: 80_000, windowTokens: 100_000, percent: 80 },
        { type: 'compaction', foldedMessages: 12, tokensBefore: 80_000, tokensAfter: 20_000, summary: 's' },
      ]),
    );
    expect(state.presence.map((client) => client.name)).toEqual(['ana@box', 'bo@pc']);
    expect(state.context).toEqual({ percent: 80, usedTokens: 80_000, windowTokens: 100_000 });
    expect(state.items[0]).toMatchObject({ text: 'context compacted: 12 messages summarised, 80000 → 20000 tokens' });
  });

  it('stops running tools and the turn on cancel, keeping what streamed', () => {
    const events = stamp([
      ...TURN.slice(0, 4),
      toolCall('c9', 'run_command', 'execute', 'sleep 100', { command: 'sleep 100' }, 'dangerous'),
      { type: 'turn_cancelled', turnId: 't1', note: 'changes already made on disk stay' },
    ]);
    const state = fold(events);
    expect(state.turn.phase).toBe('idle');
    expect(state.items.find((item) => item.kind === 'assistant')).toMatchObject({ text: 'Running ', final: true });
    expect(state.items.find((item) => item.kind === 'tool')).toMatchObject({ callId: 'c9', status: 'stopped' });
    expect(state.items.at(-2)).toMatchObject({ level: 'warn', text: 'turn cancelled: changes already made on disk stay' });
    expect(state.items.at(-1)).toMatchObject({ kind: 'run_summary', outcome: 'cancelled', calls: [{ status: 'stopped' }] });
  });

  it('turns agent errors and memory failures into notices', () => {
    const state = fold(
      stamp([
        { type: 'agent_error', code: 'max_iterations', message: 'max_iterations (40) exceeded' },
        { type: 'memory_consolidation_failed', reason: 'every model failed' },
      ]),
    );
    expect(state.items).toEqual([
      { kind: 'notice', level: 'error', text: 'max_iterations: max_iterations (40) exceeded' },
      { kind: 'notice', level: 'error', text: 'memory archival failed, session not cleared: every model failed' },
    ]);
  });

  it('applies local actions', () => {
    let state = start();
    state = reduce(state, { kind: 'connection', connection: { status: 'reconnecting', attempt: 2, reason: 'transport close' } });
    state = reduce(state, { kind: 'notice', level: 'error', text: '/compact failed: forbidden' });
    state = reduce(state, { kind: 'focus', focus: 'transcript' });
    expect(state.connection).toEqual({ status: 'reconnecting', attempt: 2, reason: 'transport close' });
    expect(state.items).toEqual([{ kind: 'notice', level: 'error', text: '/compact failed: forbidden' }]);
    expect(state.focus).toBe('transcript');
  });

  it('never mutates the state it was given', () => {
    const before = start();
    const frozen = JSON.stringify(before);
    fold(stamp(TURN), before);
    expect(JSON.stringify(before)).toBe(frozen);
  });

  it('says why a call did not ask, and keeps mode and sandbox from attach and session_configured', () => {
    const state = fold(
      stamp([
        { type: 'turn_started', turnId: 't1', model: 'openai/gpt-4.1-mini' },
        {
          type: 'tool_call',
          turnId: 't1',
          iteration: 1,
          callId: 'c1',
          tool: 'run_command',
          kind: 'execute',
          summary: 'ls -la',
          args: { command: 'ls -la' },
          danger: 'dangerous',
          reason: 'read-only command: ls',
        },
        { type: 'session_configured', by: 'bo', mode: 'read-only', title: 'renamed' },
        { type: 'conversation_cleared', by: 'bo' },
      ]),
      reduce(start(), { kind: 'attached', session: { ...SESSION, mode: 'auto-edit', sandbox: 'bubblewrap' }, role: 'driver' }),
    );
    expect(state.items[0]).toMatchObject({ kind: 'tool', callId: 'c1', reason: 'read-only command: ls' });
    expect(formatItem(state.items[0]!).map((line) => line.replace(/\{\/?[a-z-]+\}/g, ''))).toContain('  ↳ did not ask: read-only command: ls');
    expect(state.session).toMatchObject({ mode: 'read-only', title: 'renamed', sandbox: 'bubblewrap' });
    expect(state.items.slice(1)).toEqual([
      { kind: 'notice', level: 'info', text: 'approval mode → read-only, title → renamed (by bo)' },
      { kind: 'notice', level: 'info', text: '── conversation cleared by bo ──' },
    ]);
  });
});

describe('a tail that starts mid-turn (attach with tail: N)', () => {
  // The whole log of one turn; the server sends the events still in effect (turn_started, an
  // unanswered permission request) and then only the last few.
  const log = stamp([
    { type: 'user_message', text: 'fix it', by: 'ana', mode: 'turn' },
    { type: 'turn_started', turnId: 't1', model: 'openai/gpt-4.1-mini' },
    { type: 'tool_call', turnId: 't1', callId: 'c1', tool: 'read_file', kind: 'read', summary: 'a.ts', args: { path: 'a.ts' }, danger: 'safe' },
    { type: 'tool_result', turnId: 't1', callId: 'c1', tool: 'read_file', output: 'one', isError: false, durationMs: 3 },
    {
      type: 'tool_call',
      turnId: 't1',
      callId: 'c2',
      tool: 'run_command',
      kind: 'execute',
      summary: 'rm -rf build',
      args: { command: 'rm -rf build' },
      danger: 'dangerous',
    },
    {
      type: 'permission_request',
      requestId: 'r1',
      callId: 'c2',
      tool: 'run_command',
      summary: 'rm -rf build',
      args: { command: 'rm -rf build' },
      danger: 'dangerous',
      expiresAt: '2026-01-01T00:05:00.000Z',
    },
    { type: 'tool_result', turnId: 't1', callId: 'c1b', tool: 'grep', output: 'late', isError: false, durationMs: 2 },
    { type: 'assistant_text', turnId: 't1', iteration: 2, text: 'almost there' },
  ] as Body[]);

  it('renders the tail with the turn still running and the question still open', () => {
    const inEffect = log.filter((e) => e.type === 'turn_started' || e.type === 'permission_request');
    const tail = log.slice(-2);
    const state = fold([...inEffect, ...tail]);
    expect(state.turn.phase).not.toBe('idle');
    expect(state.pendingPermissions.map((p) => p.requestId)).toEqual(['r1']);
    expect(state.lastSeq).toBe(log.at(-1)!.seq);
    // A result whose call is before the tail changes nothing; the text shows.
    expect(state.items.map((item) => item.kind)).toEqual(['assistant']);
    for (const item of state.items) expect(formatItem(item).length).toBeGreaterThan(0);
    // The turn ends inside the view: a run summary, idle, no open question.
    const done = fold(
      stamp([{ type: 'turn_done', turnId: 't1', iterations: 2, outcome: 'answered' }] as Body[]).map((e) => ({ ...e, seq: 100 })),
      state,
    );
    expect(done.turn.phase).toBe('idle');
    expect(done.pendingPermissions).toEqual([]);
    expect(done.items.at(-1)?.kind).toBe('run_summary');
  });

  it('an older page goes above the view without touching its live state', () => {
    const tail = fold(log.slice(-2));
    const older = reduce(tail, { kind: 'history', events: log.slice(0, 6) });
    expect(older.items.map((item) => item.kind)).toEqual(['user', 'tool', 'tool', 'assistant']);
    expect(older.lastSeq).toBe(tail.lastSeq);
    expect(older.turn).toEqual(tail.turn);
    expect(older.pendingPermissions).toEqual(tail.pendingPermissions);
    // The result of c1b came in the tail; its call arrives with an older page that has it.
    expect(tail.orphanResults?.map((orphan) => orphan.callId)).toEqual(['c1b']);
    const withCall = reduce(tail, {
      kind: 'history',
      events: stamp([{ type: 'tool_call', turnId: 't1', iteration: 1, callId: 'c1b', tool: 'grep', args: { pattern: 'x' }, danger: 'safe' }] as Body[]),
    });
    const call = withCall.items.find((item): item is ToolItem => item.kind === 'tool' && item.callId === 'c1b');
    expect(call?.status).toBe('ok');
    expect(call?.result?.lines).toEqual(['late']);
    expect(withCall.orphanResults).toEqual([]);
    // At the item cap, nothing more is put above.
    const full: ViewState = { ...tail, items: Array.from({ length: MAX_ITEMS }, () => ({ kind: 'notice', level: 'info', text: 'x' }) as const) };
    expect(reduce(full, { kind: 'history', events: log.slice(0, 6) }).items).toBe(full.items);
  });
});
