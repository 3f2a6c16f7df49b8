import type { SessionInfo, ToolKind } from '@tandem/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tandemShellLine } from './cli-runner.js';
import { type EventBody, ScriptedServer } from './scripted-server.js';
import { Tmux } from './tmux.js';

// The TUI's view of a commander and its workers in a real terminal: `tandem attach` (driver and
// viewer, from source under tsx, inside tmux) against a scripted socket.io server that sends the
// agent events of the wire contract (agent, taskId, agent_started, agent_done, floor_changed,
// SessionInfo.floor) one step at a time; every step waits on what the screens show.

const SESSION: SessionInfo = {
  id: 'agents-0001-session',
  title: 'agents-test',
  cwd: '/work/demo',
  model: 'openai/gpt-4.1-mini',
  createdAt: '2026-01-01T00:00:00.000Z',
  status: 'idle',
  lastSeq: 0,
  floor: 'commander',
  // The agents this session's workspace defines (a session without any labels no one).
  agents: [
    { name: 'reviewer', description: 'Reviews code.', interactive: false },
    { name: 'tester', description: 'Runs the tests.', interactive: false },
    { name: 'pair', description: 'Pairs with you.', interactive: true },
  ],
};

const C = { agent: 'commander' } as const;
const R = { agent: 'reviewer', taskId: 'task-1' } as const;
const T = { agent: 'tester', taskId: 'task-2' } as const;
const W = { agent: 'worker-1', taskId: 'task-3' } as const;
const SIZE = { columns: 140, rows: 60 };

/** A tool call of turn t1's first iteration, made by `who` (who may change the iteration too). */
const toolCall = (callId: string, tool: string, kind: ToolKind, summary: string, args: Record<string, unknown>, danger: 'safe' | 'dangerous', who: object) =>
  ({ type: 'tool_call', turnId: 't1', iteration: 1, callId, tool, kind, summary, args, danger, ...who }) as EventBody;

let server: ScriptedServer;
const tmux = new Tmux();

/** The transcript part of a screen: everything above the status line (the last three rows are status, input, hints). */
function transcriptOf(screen: string): string {
  return screen.trimEnd().split('\n').slice(0, -3).join('\n').trimEnd();
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

beforeAll(async () => {
  server = await ScriptedServer.start(SESSION);
}, 240_000);

afterAll(async () => {
  tmux.kill();
  await server?.close();
});

// The scripted events are what a server sends: a tool_call carries its tool's kind and summary.
describe('the TUI with a commander and workers', () => {
  it('shows the floor, then each worker in its own segment and in the status line, in driver and viewer alike', async () => {
    tmux.start('driver', tandemShellLine(['attach', SESSION.id, '--url', server.url, '--token', 'any', '--name', 'ana']), {}, SIZE);
    tmux.start('viewer', tandemShellLine(['attach', SESSION.id, '--url', server.url, '--token', 'any', '--viewer', '--name', 'bo']), {}, SIZE);
    await tmux.waitFor('driver', (s) => s.includes('agents-test') && /driver │ idle │ floor commander/.test(s), 180_000);
    await tmux.waitFor('viewer', (s) => s.includes('agents-test') && /viewer │ idle │ floor commander/.test(s), 180_000);
    await until(async () => (await server.attachedCount()) === 2, 'both terminals to attach');

    server.emit({ type: 'user_message', text: 'review and test main.ts', by: 'ana', mode: 'turn' });
    server.emit({ type: 'turn_started', turnId: 't1', model: 'openai/gpt-4.1-mini', ...C });
    server.emit({ type: 'text_delta', turnId: 't1', delta: 'Asking two agents.', ...C });
    server.emit({ type: 'assistant_text', turnId: 't1', iteration: 1, text: 'Asking two agents.', ...C });
    server.emit(toolCall('d1', 'dispatch_to', 'delegate', 'reviewer: review main.ts', { agent: 'reviewer', task: 'review main.ts' }, 'safe', C));
    server.emit(toolCall('d2', 'dispatch_to', 'delegate', 'tester: test main.ts', { agent: 'tester', task: 'test main.ts' }, 'safe', C));
    server.emit({ type: 'agent_started', turnId: 't1', parent: 'commander', task: 'review main.ts', visible: true, ...R });
    server.emit({ type: 'agent_started', turnId: 't1', parent: 'commander', task: 'test main.ts', visible: true, ...T });
    // Their streamed text interleaves; each stays in its own segment.
    server.emit({ type: 'text_delta', turnId: 't1', delta: 'Reading ', ...R });
    server.emit({ type: 'text_delta', turnId: 't1', delta: 'Running ', ...T });
    server.emit({ type: 'text_delta', turnId: 't1', delta: 'the file.', ...R });
    server.emit({ type: 'text_delta', turnId: 't1', delta: 'the tests.', ...T });
    server.emit({ type: 'assistant_text', turnId: 't1', iteration: 1, text: 'Reading the file.', ...R });
    server.emit({ type: 'assistant_text', turnId: 't1', iteration: 1, text: 'Running the tests.', ...T });
    server.emit(toolCall('r1', 'read_file', 'read', 'main.ts', { path: 'main.ts' }, 'safe', R));
    server.emit({ type: 'usage', turnId: 't1', model: 'openai/gpt-4.1-mini', inputTokens: 1200, outputTokens: 34, ...R });

    const running = await tmux.waitFor('driver', (s) => s.includes('2 workers: reviewer read_file it 1 1.2k · tester thinking it 1'));
    expect(running).toContain('[commander] Asking two agents.');
    expect(running).toContain('⚙ dispatch_to reviewer: review main.ts');
    expect(running).toContain('▶ [reviewer] started (by commander): review main.ts · running');
    expect(running).toMatch(/│ \[reviewer\] Reading the file\.\n│ \[tester\] Running the tests\.\n│ \[reviewer\] ⚙ read_file main\.ts/);
    expect(running).toMatch(/running dispatch_to │ 2 workers/);
    await tmux.waitFor('viewer', (s) => s.includes('2 workers: reviewer read_file it 1 1.2k · tester thinking it 1'));

    // A worker asks: the dialog names it, and the driver's answer goes to the server.
    server.emit(toolCall('x1', 'run_command', 'execute', 'npm test', { command: 'npm test' }, 'dangerous', T));
    const npmTest = { callId: 'x1', tool: 'run_command', summary: 'npm test', args: { command: 'npm test' }, danger: 'dangerous' } as const;
    server.emit({ type: 'permission_request', requestId: 'p1', ...npmTest, expiresAt: new Date(Date.now() + 600_000).toISOString(), ...T });
    await tmux.waitFor('driver', (s) => s.includes('Permission needed: run_command  [DANGEROUS]  asked by [tester]'));
    await tmux.waitFor('viewer', (s) => s.includes('asked by [tester]') && s.includes('watch-only: a driver answers this request'));
    await tmux.answerPermission('driver', 'y');
    await until(() => server.requests('permission:respond').length === 1, 'the permission answer');
    expect(server.requests('permission:respond')[0]?.payload).toMatchObject({ requestId: 'p1', decision: 'allow_once' });
    server.emit({ type: 'permission_resolved', requestId: 'p1', decision: 'allow_once', by: 'ana', ...T });
    await tmux.waitFor('driver', (s) => s.includes('tester run_command') && !s.includes('Permission needed'));

    server.emit({ type: 'tool_result', turnId: 't1', callId: 'r1', tool: 'read_file', isError: false, output: 'console.log(1);', durationMs: 3, ...R });
    server.emit({ type: 'assistant_text', turnId: 't1', iteration: 2, text: 'Looks fine.', ...R });
    server.emit({ type: 'agent_done', isError: false, result: 'Looks fine.', iterations: 2, usage: { inputTokens: 1900, outputTokens: 60 }, ...R });
    server.emit({ type: 'tool_result', turnId: 't1', callId: 'x1', tool: 'run_command', isError: false, output: 'ok 3 tests', durationMs: 900, ...T });
    server.emit({ type: 'agent_done', isError: true, result: 'tester failed: model error', iterations: 2, ...T });
    server.emit({ type: 'tool_result', turnId: 't1', callId: 'd1', tool: 'dispatch_to', isError: false, output: 'Looks fine.', durationMs: 1200, ...C });
    server.emit({
      type: 'tool_result',
      turnId: 't1',
      callId: 'd2',
      tool: 'dispatch_to',
      isError: true,
      output: 'tester failed: model error',
      durationMs: 1300,
      ...C,
    });
    server.emit({ type: 'assistant_text', turnId: 't1', iteration: 2, text: 'One more check.', ...C });
    const after = await tmux.waitFor('driver', (s) => s.includes('[commander] One more check.'));
    expect(after).toMatch(/│ \[reviewer\] Looks fine\.\n│ ■ \[reviewer\] done · 2 iterations · 2\.0k tokens\n/);
    expect(after).toContain('│ ✗ [tester] failed · 2 iterations: tester failed: model error');
    expect(after).not.toMatch(/\d workers?:/);
  }, 600_000);

  it('hides an anonymous worker until Ctrl-O shows its steps, in this terminal only', async () => {
    server.emit(toolCall('w1', 'run_worker', 'delegate', 'grep for TODO', { task: 'grep for TODO' }, 'safe', { ...C, iteration: 2 }));
    server.emit({ type: 'agent_started', turnId: 't1', parent: 'commander', task: 'grep for TODO', visible: false, ...W });
    server.emit(toolCall('g1', 'grep_files', 'search', '/TODO/', { pattern: 'TODO' }, 'safe', W));
    const hidden = await tmux.waitFor('driver', (s) => s.includes('1 worker: worker-1 grep_files it 1'));
    expect(hidden).toContain('▸ [worker-1] anonymous worker (by commander): grep for TODO · running · hidden, Ctrl-O shows its steps');
    expect(hidden).not.toContain('[worker-1] ⚙ grep_files');
    expect(hidden).toContain('Ctrl-O show workers');

    tmux.type('driver', '', 'C-o');
    const shown = await tmux.waitFor('driver', (s) => s.includes('│ [worker-1] ⚙ grep_files /TODO/'));
    expect(shown).toContain('▾ [worker-1] anonymous worker (by commander): grep for TODO · running · Ctrl-O hides its steps');
    // The viewer's choice is its own: still collapsed there.
    const viewer = await tmux.waitFor('viewer', (s) => s.includes('1 worker: worker-1 grep_files it 1'));
    expect(viewer).not.toContain('[worker-1] ⚙ grep_files');
    tmux.type('driver', '', 'C-o');
    await tmux.waitFor('driver', (s) => !s.includes('[worker-1] ⚙ grep_files') && s.includes('hidden, Ctrl-O shows its steps'));

    server.emit({ type: 'tool_result', turnId: 't1', callId: 'g1', tool: 'grep_files', isError: false, output: 'no matches', durationMs: 5, ...W });
    server.emit({ type: 'assistant_text', turnId: 't1', iteration: 2, text: 'No TODO left.', ...W });
    server.emit({ type: 'agent_done', isError: false, result: 'No TODO left.', iterations: 2, ...W });
    server.emit({ type: 'tool_result', turnId: 't1', callId: 'w1', tool: 'run_worker', isError: false, output: 'No TODO left.', durationMs: 40, ...C });
    server.emit({ type: 'assistant_text', turnId: 't1', iteration: 3, text: 'All checked.', ...C });
    server.emit({ type: 'turn_done', turnId: 't1', iterations: 3, outcome: 'answered', ...C });
    const done = await tmux.waitFor('driver', (s) => s.includes('Final answer produced') && /driver │ idle/.test(s));
    expect(done).toMatch(/│ reviewer \(task-1\) → DONE · 2 iterations · 1,900 in \/ 60 out tokens +│/);
    expect(done).toMatch(/│ tester \(task-2\) → ERROR · 2 iterations +│/);
    expect(done).toMatch(/│ worker-1 \(task-3\) → DONE · 2 iterations +│/);

    // Both terminals folded the same events into the same transcript.
    const viewerDone = await tmux.waitFor('viewer', (s) => s.includes('Final answer produced') && /viewer │ idle/.test(s));
    expect(transcriptOf(viewerDone)).toBe(transcriptOf(done));
  }, 600_000);

  it('shows who holds the floor, and @ completes agent names', async () => {
    server.emit({ type: 'floor_changed', by: 'commander', agent: 'pair' });
    await tmux.waitFor('driver', (s) => /idle │ floor pair/.test(s) && s.includes('pair has the floor (by commander)'));
    await tmux.waitFor('viewer', /idle │ floor pair/);

    tmux.type('driver', '@');
    await tmux.waitFor('driver', 'Tab completes: @commander @pair @reviewer @tester');
    tmux.type('driver', 're', 'Tab');
    await tmux.waitFor('driver', /› @reviewer\s*$/m);
    tmux.type('driver', 'look at main.ts again', 'Enter');
    await until(() => server.requests('session:send').length === 1, 'the message');
    expect(server.requests('session:send')[0]?.payload).toMatchObject({ sessionId: SESSION.id, text: '@reviewer look at main.ts again' });

    server.emit({ type: 'floor_changed', by: 'pair', agent: 'commander' });
    await tmux.waitFor('driver', (s) => /idle │ floor commander/.test(s) && s.includes('the floor is back with the commander (by pair)'));
  }, 600_000);
});
