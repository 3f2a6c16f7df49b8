import type { SessionEvent, SessionInfo } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { MAX_JOBS } from './jobs.js';
import { initialState, reduce, reduceAll, runningCommand } from './reducer.js';
import { toolCall } from './session-events.test-helper.js';
import type { ViewState } from './types.js';
import { DEMO_SESSION } from '../tui-controller.test-helper.js';

const SESSION: SessionInfo = { ...DEMO_SESSION, cwd: '/w' };

let seq = 0;
function ev(body: Record<string, unknown>): SessionEvent {
  seq += 1;
  return { sessionId: 's1', seq, ts: `2026-01-01T00:00:${String(seq % 60).padStart(2, '0')}.000Z`, ...body } as SessionEvent;
}

function start(): ViewState {
  seq = 0;
  return reduce(initialState({ url: 'u', me: 'ana', role: 'driver' }), { kind: 'attached', session: SESSION, role: 'driver' });
}

const fold = (state: ViewState, events: SessionEvent[]) =>
  reduceAll(
    state,
    events.map((event) => ({ kind: 'event' as const, event })),
  );

describe('background jobs in the view state', () => {
  it('follows job_started and job_exited, and still notes them in the transcript', () => {
    const state = fold(start(), [
      ev({ type: 'job_started', jobId: 'job-1', command: 'npm run dev', logPath: '/d/job-1.log' }),
      ev({ type: 'job_started', jobId: 'job-2', command: 'sleep 9', logPath: '/d/job-2.log' }),
      ev({ type: 'job_exited', jobId: 'job-2', exitCode: null, stoppedBy: 'ana' }),
    ]);
    expect(state.jobs.map((job) => [job.jobId, job.status])).toEqual([
      ['job-1', 'running'],
      ['job-2', 'stopped'],
    ]);
    expect(state.jobs[0]?.startedAt).toBe('2026-01-01T00:00:01.000Z');
    expect(state.items.filter((item) => item.kind === 'notice').map((item) => (item.kind === 'notice' ? item.text : ''))).toEqual([
      'background job job-1 started: npm run dev (log: /d/job-1.log)',
      'background job job-2 started: sleep 9 (log: /d/job-2.log)',
      'background job job-2 exited (code none), stopped by ana',
    ]);
  });

  it('an exit without a stop is "exited" with its code; an unknown job changes nothing', () => {
    let state = fold(start(), [
      ev({ type: 'job_started', jobId: 'job-1', command: 'make', logPath: '/l' }),
      ev({ type: 'job_exited', jobId: 'job-1', exitCode: 2 }),
    ]);
    expect(state.jobs[0]).toMatchObject({ status: 'exited', exitCode: 2 });
    const before = state.jobs;
    state = fold(state, [ev({ type: 'job_exited', jobId: 'job-9', exitCode: 0 })]);
    expect(state.jobs).toBe(before);
  });

  it('a jobs:list answer replaces the list, in start order', () => {
    const state = reduce(start(), {
      kind: 'jobs',
      jobs: [
        { jobId: 'b', command: 'two', startedAt: '2026-01-01T00:00:09.000Z', status: 'running', logPath: '/b' },
        { jobId: 'a', command: 'one', startedAt: '2026-01-01T00:00:01.000Z', status: 'exited', exitCode: 0, logPath: '/a' },
      ],
    });
    expect(state.jobs.map((job) => job.jobId)).toEqual(['a', 'b']);
  });

  it('keeps at most MAX_JOBS, dropping finished jobs before running ones', () => {
    const events: SessionEvent[] = [ev({ type: 'job_started', jobId: 'keep', command: 'server', logPath: '/k' })];
    for (let i = 0; i < MAX_JOBS + 5; i++) {
      events.push(ev({ type: 'job_started', jobId: `j${i}`, command: 'true', logPath: '/j' }), ev({ type: 'job_exited', jobId: `j${i}`, exitCode: 0 }));
    }
    const state = fold(start(), events);
    expect(state.jobs.length).toBeLessThanOrEqual(MAX_JOBS);
    expect(state.jobs[0]?.jobId).toBe('keep');
  });
});

describe('command focus (Ctrl-T)', () => {
  const running = () =>
    fold(start(), [
      ev({ type: 'turn_started', turnId: 't1', model: 'm' }),
      ev(toolCall('c1', 'run_command', 'execute', 'read x', { command: 'read x' }, 'dangerous')),
    ]);

  it('only a running run_command takes the input line', () => {
    const state = running();
    expect(runningCommand(state)).toBe('c1');
    expect(reduce(state, { kind: 'command_focus', callId: 'c1' }).commandFocus).toBe('c1');
    expect(reduce(state, { kind: 'command_focus', callId: 'nope' }).commandFocus).toBeNull();
    expect(reduce(reduce(state, { kind: 'command_focus', callId: 'c1' }), { kind: 'command_focus', callId: null }).commandFocus).toBeNull();
  });

  it('ends when the command reports its result, or the turn ends', () => {
    const focused = reduce(running(), { kind: 'command_focus', callId: 'c1' });
    const done = fold(focused, [ev({ type: 'tool_result', turnId: 't1', callId: 'c1', tool: 'run_command', isError: false, output: 'x', durationMs: 5 })]);
    expect(done.commandFocus).toBeNull();
    expect(runningCommand(done)).toBeUndefined();
    const cancelled = fold(reduce(running(), { kind: 'command_focus', callId: 'c1' }), [ev({ type: 'turn_cancelled', turnId: 't1', note: 'by ana' })]);
    expect(cancelled.commandFocus).toBeNull();
  });
});
