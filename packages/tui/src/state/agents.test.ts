import type { Role, SessionEvent, SessionInfo } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { formatTranscript } from '../views/format-transcript.js';
import { mentionNames, runningAgents } from './agents.js';
import { reduce } from './reducer.js';
import { attachedState, type Body, foldEvents, stamp, toolCall } from './session-events.test-helper.js';
import type { AgentItem, AssistantItem, RunSummaryItem, ToolItem, TranscriptItem, ViewState } from './types.js';
import { DEMO_SESSION } from '../tui-controller.test-helper.js';

const SESSION: SessionInfo = { ...DEMO_SESSION, title: 'agents', cwd: '/work/demo', floor: 'commander' };

const start = (role: Role = 'driver', session: SessionInfo = SESSION): ViewState => attachedState(session, role);
const fold = (events: SessionEvent[], state = start()): ViewState => foldEvents(state, events);

/** What a person sees: tags removed, escaped braces restored. */
function plain(lines: string[]): string[] {
  return lines.map((line) =>
    line
      .replace(/\{\/?[a-z-]+\}/g, '')
      .replace(/\{open\}/g, '{')
      .replace(/\{close\}/g, '}'),
  );
}

const C = { agent: 'commander' } as const;
const R = { agent: 'reviewer', taskId: 'task-1' } as const;
const T = { agent: 'tester', taskId: 'task-2' } as const;
const W = { agent: 'worker-1', taskId: 'task-3' } as const;

/**
 * A commander turn: it writes, dispatches reviewer and tester in parallel (their events
 * interleave), reads both results, writes again, runs an anonymous worker, and answers.
 */
const TURN: Body[] = [
  { type: 'user_message', text: 'review and test main.ts', by: 'ana@box', mode: 'turn' },
  { type: 'turn_started', turnId: 't1', model: 'openai/gpt-4.1-mini', ...C },
  { type: 'text_delta', turnId: 't1', delta: 'Asking ', ...C },
  { type: 'text_delta', turnId: 't1', delta: 'two agents.', ...C },
  { type: 'assistant_text', turnId: 't1', iteration: 1, text: 'Asking two agents.', ...C },
  toolCall('d1', 'dispatch_to', 'delegate', 'reviewer: review main.ts', { agent: 'reviewer', task: 'review main.ts' }, 'safe', C),
  toolCall('d2', 'dispatch_to', 'delegate', 'tester: test main.ts', { agent: 'tester', task: 'test main.ts' }, 'safe', C),
  { type: 'agent_started', turnId: 't1', parent: 'commander', task: 'review main.ts', visible: true, ...R },
  { type: 'agent_started', turnId: 't1', parent: 'commander', task: 'test main.ts', visible: true, ...T },
  { type: 'text_delta', turnId: 't1', delta: 'Reading ', ...R },
  { type: 'text_delta', turnId: 't1', delta: 'Running ', ...T },
  { type: 'text_delta', turnId: 't1', delta: 'the file.', ...R },
  { type: 'text_delta', turnId: 't1', delta: 'the tests.', ...T },
  { type: 'assistant_text', turnId: 't1', iteration: 1, text: 'Reading the file.', ...R },
  toolCall('r1', 'read_file', 'read', 'main.ts', { path: 'main.ts' }, 'safe', R),
  { type: 'assistant_text', turnId: 't1', iteration: 1, text: 'Running the tests.', ...T },
  toolCall('x1', 'run_command', 'execute', 'npm test', { command: 'npm test' }, 'dangerous', T),
  { type: 'usage', turnId: 't1', model: 'openai/gpt-4.1-mini', inputTokens: 900, outputTokens: 40, ...R },
  { type: 'tool_result', turnId: 't1', callId: 'r1', tool: 'read_file', isError: false, output: 'console.log(1);', durationMs: 3, ...R },
  { type: 'text_delta', turnId: 't1', delta: 'Looks fine.', ...R },
  { type: 'assistant_text', turnId: 't1', iteration: 2, text: 'Looks fine.', ...R },
  { type: 'agent_done', isError: false, result: 'Looks fine.', iterations: 2, usage: { inputTokens: 1900, outputTokens: 60 }, ...R },
  { type: 'tool_result', turnId: 't1', callId: 'x1', tool: 'run_command', isError: false, output: 'ok', durationMs: 900, ...T },
  { type: 'assistant_text', turnId: 't1', iteration: 2, text: 'Tests pass.', ...T },
  { type: 'agent_done', isError: false, result: 'Tests pass: 12 of 12.', iterations: 2, ...T },
  { type: 'tool_result', turnId: 't1', callId: 'd1', tool: 'dispatch_to', isError: false, output: 'Looks fine.', durationMs: 1200, ...C },
  { type: 'tool_result', turnId: 't1', callId: 'd2', tool: 'dispatch_to', isError: false, output: 'Tests pass.', durationMs: 1300, ...C },
  { type: 'text_delta', turnId: 't1', delta: 'Both done; one more check.', ...C },
  { type: 'assistant_text', turnId: 't1', iteration: 2, text: 'Both done; one more check.', ...C },
  toolCall('w1', 'run_worker', 'delegate', 'grep for TODO', { task: 'grep for TODO' }, 'safe', { ...C, iteration: 2 }),
  { type: 'agent_started', turnId: 't1', parent: 'commander', task: 'grep for TODO', visible: false, ...W },
  toolCall('g1', 'grep_files', 'search', '/TODO/', { pattern: 'TODO' }, 'safe', W),
  { type: 'tool_result', turnId: 't1', callId: 'g1', tool: 'grep_files', isError: false, output: 'no matches', durationMs: 5, ...W },
  { type: 'assistant_text', turnId: 't1', iteration: 2, text: 'No TODO left.', ...W },
  { type: 'agent_done', isError: false, result: 'No TODO left.', iterations: 2, ...W },
  { type: 'tool_result', turnId: 't1', callId: 'w1', tool: 'run_worker', isError: false, output: 'No TODO left.', durationMs: 40, ...C },
  { type: 'assistant_text', turnId: 't1', iteration: 3, text: 'All good.', ...C },
  { type: 'turn_done', turnId: 't1', iterations: 3, outcome: 'answered', ...C },
];

function describeItem(item: TranscriptItem): string {
  switch (item.kind) {
    case 'assistant':
      return `text ${item.agent}${item.taskId ? `/${item.taskId}` : ''}: ${item.text}`;
    case 'tool':
      return `tool ${item.agent}: ${item.tool}`;
    case 'agent':
      return `${item.phase} ${item.agent}`;
    default:
      return item.kind;
  }
}

describe('agents in the transcript', () => {
  it("keeps each speaker's streamed text in its own segment, in event order, however the events interleave", () => {
    // The session defines the agents it dispatches to (so the commander is labelled too).
    const defined = [
      { name: 'reviewer', description: 'Reviews.', interactive: false },
      { name: 'tester', description: 'Tests.', interactive: false },
    ];
    const state = fold(stamp(TURN), start('driver', { ...SESSION, agents: defined }));
    expect(state.items.map(describeItem)).toEqual([
      'user',
      'text commander: Asking two agents.',
      'tool commander: dispatch_to',
      'tool commander: dispatch_to',
      'started reviewer',
      'started tester',
      'text reviewer/task-1: Reading the file.',
      'text tester/task-2: Running the tests.',
      'tool reviewer: read_file',
      'tool tester: run_command',
      'text reviewer/task-1: Looks fine.',
      'done reviewer',
      'text tester/task-2: Tests pass.',
      'done tester',
      'text commander: Both done; one more check.',
      'tool commander: run_worker',
      'started worker-1',
      'tool worker-1: grep_files',
      'text worker-1/task-3: No TODO left.',
      'done worker-1',
      'text commander: All good.',
      'run_summary',
    ]);
    expect(state.items.filter((item) => item.kind === 'assistant').every((item) => (item as AssistantItem).final)).toBe(true);
  });

  it("does not let a worker's text or tools move the commander's turn, and lists each worker in the run summary", () => {
    const events = stamp(TURN);
    // Mid-turn: both workers run, the commander waits on its dispatches.
    const upTo = events.findIndex((event) => event.type === 'usage');
    const running = fold(events.slice(0, upTo + 1));
    expect(running.turn).toMatchObject({ phase: 'running_tool', tool: 'dispatch_to' });
    expect(runningAgents(running).map((run) => [run.agent, run.activity, run.tool, run.iterations, run.usage])).toEqual([
      ['reviewer', 'tool', 'read_file', 1, { inputTokens: 900, outputTokens: 40 }],
      ['tester', 'tool', 'run_command', 1, undefined],
    ]);
    const done = fold(events);
    expect(runningAgents(done)).toEqual([]);
    const summary = done.items.at(-1) as RunSummaryItem;
    expect(summary.calls.map((call) => call.tool)).toEqual(['dispatch_to', 'dispatch_to', 'run_worker']);
    expect(summary.agents).toEqual([
      { agent: 'reviewer', taskId: 'task-1', status: 'done', iterations: 2, usage: { inputTokens: 1900, outputTokens: 60 } },
      { agent: 'tester', taskId: 'task-2', status: 'done', iterations: 2 },
      { agent: 'worker-1', taskId: 'task-3', status: 'done', iterations: 2 },
    ]);
  });

  it("hides an anonymous worker's items until this terminal expands them", () => {
    const state = fold(stamp(TURN));
    const hidden = state.items.filter((item) => 'hidden' in item && item.hidden);
    expect(hidden.map(describeItem)).toEqual(['tool worker-1: grep_files', 'text worker-1/task-3: No TODO left.', 'done worker-1']);
    const collapsed = plain(formatTranscript(state.items)).join('\n');
    expect(collapsed).toContain('▸ [worker-1] anonymous worker (by commander): grep for TODO · done · hidden, Ctrl-O shows its steps');
    expect(collapsed).not.toContain('grep_files');
    expect(collapsed).not.toContain('[worker-1] No TODO left.');
    expect(collapsed).toContain('⚙ dispatch_to reviewer: review main.ts');
    // Named workers are shown, each line behind its gutter, with the agent's name.
    expect(collapsed).toContain('│ [reviewer] Reading the file.');
    expect(collapsed).toContain('│ [tester] ⚙ run_command npm test [dangerous]');
    expect(collapsed).toContain('▶ [reviewer] started (by commander): review main.ts · done');
    // A result that is the worker's last answer, already on screen, is not repeated on its done line.
    expect(collapsed).toMatch(/│ ■ \[reviewer\] done · 2 iterations · 2\.0k tokens\n/);
    expect(collapsed).toContain('│ ■ [tester] done · 2 iterations: Tests pass: 12 of 12.');
    expect(collapsed).toContain('[commander] Both done; one more check.');

    const expanded = reduce(state, { kind: 'show_hidden', show: true });
    expect(expanded.items).toBe(state.items);
    const shown = plain(formatTranscript(expanded.items, { showHidden: expanded.showHidden })).join('\n');
    expect(shown).toContain('▾ [worker-1] anonymous worker (by commander): grep for TODO · done · Ctrl-O hides its steps');
    expect(shown).toContain('│ [worker-1] ⚙ grep_files /TODO/');
    expect(shown).toContain('│ [worker-1] No TODO left.');
  });

  it("hides an anonymous worker's items whose agent_started is not in the view (older than the attach's tail)", () => {
    const state = fold(stamp(TURN.filter((body) => body.type !== 'agent_started')));
    expect(state.items.filter((item) => 'hidden' in item && item.hidden).map(describeItem)).toEqual([
      'tool worker-1: grep_files',
      'text worker-1/task-3: No TODO left.',
      'done worker-1',
    ]);
  });

  it('folds the same events into the same transcript for a driver and a viewer', () => {
    const events = stamp(TURN);
    const driver = fold(events, start('driver'));
    const viewer = fold(events, start('viewer'));
    expect(viewer.items).toEqual(driver.items);
    expect(viewer.agents).toEqual(driver.agents);
    expect(plain(formatTranscript(viewer.items))).toEqual(plain(formatTranscript(driver.items)));
  });

  it('marks workers that never reported as stopped when the turn is cancelled', () => {
    const events = stamp([
      ...TURN.slice(0, 9),
      toolCall('x1', 'run_command', 'execute', 'sleep 100', { command: 'sleep 100' }, 'dangerous', T),
      { type: 'turn_cancelled', turnId: 't1', note: 'cancelled by ana@box', ...C },
    ]);
    const state = fold(events);
    expect(state.agents.map((run) => [run.agent, run.status])).toEqual([
      ['reviewer', 'stopped'],
      ['tester', 'stopped'],
    ]);
    const started = state.items.filter((item): item is AgentItem => item.kind === 'agent' && item.phase === 'started');
    expect(started.map((item) => item.status)).toEqual(['stopped', 'stopped']);
    expect((state.items.find((item) => item.kind === 'tool' && item.callId === 'x1') as ToolItem).status).toBe('stopped');
    expect(state.turn.phase).toBe('idle');
  });

  it('keeps the floor from the session and from floor_changed, and learns the names @ completes', () => {
    expect(start().floor).toBe('commander');
    const events = stamp([
      { type: 'agent_started', turnId: 't1', parent: 'commander', task: 'x', visible: false, ...W },
      { type: 'floor_changed', by: 'commander', agent: 'pair' },
      { type: 'floor_changed', by: 'ana@box', agent: 'commander' },
    ]);
    const state = fold(events.slice(0, 2));
    expect(state.floor).toBe('pair');
    expect(mentionNames(state)).toEqual(['commander', 'pair']);
    expect(plain(formatTranscript(state.items)).at(-1)).toBe('· pair has the floor (by commander): messages that name no one go to pair');
    const back = fold(events.slice(2), state);
    expect(back.floor).toBe('commander');
    // Without a floor on the wire (an older server) there is none to show.
    expect(start('driver', { ...SESSION, floor: undefined }).floor).toBeNull();
  });

  it("takes a worker's own turn events as its run's, never as the session's turn", () => {
    const events = stamp([
      ...TURN.slice(0, 8),
      { type: 'turn_started', turnId: 'r-turn', model: 'openai/gpt-4.1-mini', ...R },
      { type: 'context_usage', usedTokens: 90_000, windowTokens: 100_000, percent: 90, ...R },
      { type: 'text_delta', turnId: 'r-turn', delta: 'Half a thought', ...R },
      {
        type: 'tool_call',
        turnId: 'r-turn',
        iteration: 1,
        callId: 'r1',
        tool: 'read_file',
        kind: 'read',
        summary: 'a.ts',
        args: { path: 'a.ts' },
        danger: 'safe',
        ...R,
      },
      { type: 'turn_interrupted', turnId: 'r-turn', reason: 'time limit', ...R },
      { type: 'turn_done', turnId: 'r-turn', iterations: 3, outcome: 'error', usage: { inputTokens: 10, outputTokens: 2 }, ...R },
    ]);
    const state = fold(events);
    expect(state.turn).toMatchObject({ phase: 'running_tool', turnId: 't1', tool: 'dispatch_to' });
    expect(state.run?.turnId).toBe('t1');
    expect(state.context).toBeNull();
    expect(state.items.some((item) => item.kind === 'run_summary')).toBe(false);
    expect(state.items.filter((item) => item.kind === 'notice')).toEqual([]);
    const reviewer = state.agents.find((run) => run.agent === 'reviewer');
    expect(reviewer).toMatchObject({ status: 'running', iterations: 3, usage: { inputTokens: 10, outputTokens: 2 } });
    expect(state.items.find((item) => item.kind === 'tool' && item.callId === 'r1')).toMatchObject({ status: 'stopped' });
    expect(state.items.find((item) => item.kind === 'assistant' && item.taskId === 'task-1')).toMatchObject({ text: 'Half a thought', final: true });
  });

  it("names the floor holder on its answers and in its run summary's title", () => {
    const P = { agent: 'pair' } as const;
    const state = fold(
      stamp([
        { type: 'floor_changed', by: 'commander', agent: 'pair' },
        { type: 'user_message', text: 'how about a trie?', by: 'ana@box', mode: 'turn' },
        { type: 'turn_started', turnId: 't2', model: 'm', ...P },
        { type: 'text_delta', turnId: 't2', delta: 'A trie works.', ...P },
        {
          type: 'tool_call',
          turnId: 't2',
          iteration: 1,
          callId: 'p1',
          tool: 'read_file',
          kind: 'read',
          summary: 'trie.ts',
          args: { path: 'trie.ts' },
          danger: 'safe',
          ...P,
        },
        { type: 'turn_done', turnId: 't2', iterations: 1, ...P },
      ]),
    );
    const lines = plain(formatTranscript(state.items));
    expect(lines).toContain('[pair] A trie works.');
    expect(lines).toContain('[pair] ⚙ read_file trie.ts');
    expect(lines.find((line) => line.startsWith('┌─'))).toMatch(/^┌─ Agent run: pair ─+┐$/);
  });

  it('completes the agents the session lists (SessionInfo.agents) before they have said anything', () => {
    const listed = {
      ...SESSION,
      agents: [
        { name: 'reviewer', description: 'Reviews.', interactive: false },
        { name: 'pair', description: 'Pairs.', interactive: true },
      ],
    };
    expect(mentionNames(start('driver', listed as SessionInfo))).toEqual(['commander', 'pair', 'reviewer']);
    expect(mentionNames(start())).toEqual(['commander']);
  });

  it('labels no answer [commander] in a session without agents, even when events name the commander', () => {
    const state = fold(
      stamp([
        { type: 'turn_started', turnId: 't1', model: 'm', ...C },
        { type: 'text_delta', turnId: 't1', delta: 'All tests pass.', ...C },
        { type: 'tool_call', turnId: 't1', iteration: 1, callId: 'c1', tool: 'read_file', args: { path: 'a.ts' }, danger: 'safe', ...C },
        { type: 'assistant_text', turnId: 't1', iteration: 2, text: 'All tests pass.', ...C },
        { type: 'turn_done', turnId: 't1', iterations: 2, ...C },
      ]),
    );
    const lines = plain(formatTranscript(state.items));
    expect(lines).toContain('All tests pass.');
    expect(lines.join('\n')).not.toContain('[commander]');
    // With agents defined, the commander is named like everyone else.
    const withAgents = fold(
      stamp([{ type: 'assistant_text', turnId: 't1', iteration: 1, text: 'Asking.', ...C }]),
      start('driver', { ...SESSION, agents: [{ name: 'reviewer', description: 'Reviews.', interactive: false }] }),
    );
    expect(plain(formatTranscript(withAgents.items))).toContain('[commander] Asking.');
  });

  it('keeps a session without agents as it was: no labels, no workers', () => {
    const state = fold(
      stamp([
        { type: 'turn_started', turnId: 't1', model: 'm' },
        { type: 'text_delta', turnId: 't1', delta: 'Hi.' },
        { type: 'assistant_text', turnId: 't1', iteration: 1, text: 'Hi.' },
        { type: 'turn_done', turnId: 't1', iterations: 1 },
      ]),
    );
    expect(plain(formatTranscript(state.items))[0]).toBe('Hi.');
    expect((state.items.at(-1) as RunSummaryItem).agents).toBeUndefined();
  });
});
