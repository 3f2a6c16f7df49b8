import type { SessionEvent } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { TurnTracker } from './turn-tracker.js';

let seq = 0;
const at = (body: Record<string, unknown>): SessionEvent => ({ sessionId: 's', seq: ++seq, ts: '2026-01-01T00:00:00.000Z', ...body }) as SessionEvent;

describe('TurnTracker', () => {
  it('follows the turn the message started: last reply text, usage, iterations, answered', () => {
    const tracker = new TurnTracker('me (run)', 'do it');
    tracker.started('turn', 't1');
    expect(tracker.feed(at({ type: 'assistant_text', turnId: 't1', iteration: 1, text: 'Let me look.' }))).toBeUndefined();
    tracker.feed(at({ type: 'assistant_text', turnId: 't1', iteration: 2, text: 'worker text', taskId: 'w1', agent: 'worker-1' }));
    tracker.feed(at({ type: 'assistant_text', turnId: 't1', iteration: 2, text: 'All done.' }));
    tracker.feed(at({ type: 'turn_done', turnId: 'other', iterations: 9 }));
    const outcome = tracker.feed(at({ type: 'turn_done', turnId: 't1', iterations: 2, outcome: 'answered', usage: { inputTokens: 10, outputTokens: 3 } }));
    expect(outcome).toEqual({ turnId: 't1', end: 'answered', answer: 'All done.', iterations: 2, usage: { inputTokens: 10, outputTokens: 3 }, denials: [] });
  });

  it("keeps the cache reads, writes and cost of the turn's usage, and adds none the server did not send", () => {
    const tracker = new TurnTracker('me', 'x');
    tracker.started('turn', 't1');
    tracker.feed(
      at({
        type: 'usage',
        turnId: 't1',
        model: 'anthropic/claude-sonnet-4-5',
        inputTokens: 900,
        outputTokens: 20,
        cacheReadTokens: 700,
        cacheWriteTokens: 150,
        costUsd: 0.0012,
      }),
    );
    expect(tracker.feed(at({ type: 'turn_done', turnId: 't1', iterations: 1, outcome: 'answered' }))?.usage).toEqual({
      inputTokens: 900,
      outputTokens: 20,
      cacheReadTokens: 700,
      cacheWriteTokens: 150,
      costUsd: 0.0012,
    });
    const unpriced = new TurnTracker('me', 'y');
    unpriced.started('turn', 't2');
    const outcome = unpriced.feed(
      at({ type: 'turn_done', turnId: 't2', iterations: 1, outcome: 'answered', usage: { inputTokens: 5, outputTokens: 1, cacheReadTokens: 0 } }),
    );
    expect(outcome?.usage).toEqual({ inputTokens: 5, outputTokens: 1, cacheReadTokens: 0 });
  });

  it('records an agent error and the way the turn stopped', () => {
    const tracker = new TurnTracker('me', 'x');
    tracker.started('turn', 't1');
    tracker.feed(at({ type: 'agent_error', turnId: 't1', code: 'max_iterations', message: 'max_iterations (1) exceeded' }));
    expect(tracker.feed(at({ type: 'turn_done', turnId: 't1', iterations: 1, outcome: 'max_iterations' }))).toMatchObject({
      end: 'max_iterations',
      error: { code: 'max_iterations', message: 'max_iterations (1) exceeded' },
    });
  });

  it("counts a person's deny, a timeout and a stored deny as denials, but not a request expired by a cancel", () => {
    const tracker = new TurnTracker('me', 'x');
    tracker.started('turn', 't1');
    tracker.feed(at({ type: 'tool_call', turnId: 't1', iteration: 1, callId: 'c1', tool: 'run_command', args: { command: 'a' }, danger: 'dangerous' }));
    tracker.feed(
      at({ type: 'permission_request', requestId: 'r1', callId: 'c1', tool: 'run_command', args: { command: 'a' }, danger: 'dangerous', expiresAt: 'x' }),
    );
    tracker.feed(at({ type: 'permission_resolved', requestId: 'r1', decision: 'deny_once', by: 'alice', reason: 'answered' }));
    tracker.feed(at({ type: 'permission_request', requestId: 'r2', callId: 'c2', tool: 'write_file', args: {}, danger: 'medium', expiresAt: 'x' }));
    tracker.feed(at({ type: 'permission_resolved', requestId: 'r2', decision: 'deny_once', by: 'system', reason: 'timeout' }));
    tracker.feed(at({ type: 'permission_request', requestId: 'r3', callId: 'c3', tool: 'write_file', args: {}, danger: 'medium', expiresAt: 'x' }));
    tracker.feed(at({ type: 'permission_resolved', requestId: 'r3', decision: 'deny_once', by: 'system', reason: 'expired' }));
    tracker.feed(at({ type: 'tool_call', turnId: 't1', iteration: 1, callId: 'c4', tool: 'run_command', args: { command: 'git push' }, danger: 'dangerous' }));
    tracker.feed(
      at({ type: 'tool_result', turnId: 't1', callId: 'c4', tool: 'run_command', isError: true, output: 'denied', durationMs: 0, outcome: 'denied' }),
    );
    const outcome = tracker.feed(at({ type: 'turn_done', turnId: 't1', iterations: 1 }))!;
    expect(outcome.denials.map((d) => [d.callId, d.reason, d.by])).toEqual([
      ['c1', 'answered', 'alice'],
      ['c2', 'timeout', 'system'],
      ['c4', 'rule', 'rule'],
    ]);
    expect(outcome.denials[2]!.args).toEqual({ command: 'git push' });
  });

  it('steering folded into the running turn: that turn answers it', () => {
    const tracker = new TurnTracker('me', 'and this');
    tracker.started('steer', 't1');
    tracker.feed(at({ type: 'user_message', text: 'and this', by: 'me', mode: 'steer' }));
    tracker.feed(at({ type: 'assistant_text', turnId: 't1', iteration: 2, text: 'Both done.' }));
    expect(tracker.feed(at({ type: 'turn_done', turnId: 't1', iterations: 2 }))).toMatchObject({ turnId: 't1', answer: 'Both done.' });
  });

  it('steering that came too late: the next turn, which the server starts with it, is followed', () => {
    const tracker = new TurnTracker('me', 'and this');
    tracker.started('steer', 't1');
    tracker.feed(at({ type: 'assistant_text', turnId: 't1', iteration: 1, text: 'First answer.' }));
    expect(tracker.feed(at({ type: 'turn_done', turnId: 't1', iterations: 1 }))).toBeUndefined();
    tracker.feed(at({ type: 'user_message', text: 'and this', by: 'me', mode: 'turn' }));
    tracker.feed(at({ type: 'turn_started', turnId: 't2', model: 'm' }));
    tracker.feed(at({ type: 'assistant_text', turnId: 't2', iteration: 1, text: 'Second answer.' }));
    expect(tracker.feed(at({ type: 'turn_done', turnId: 't2', iterations: 1 }))).toMatchObject({ turnId: 't2', answer: 'Second answer.', end: 'answered' });
  });

  it('a message that started no turn (the floor only) ends at once; cancel and interrupt end it', () => {
    const none = new TurnTracker('me', '@commander');
    none.started('turn', undefined);
    expect(none.done).toMatchObject({ end: 'answered', turnId: undefined });
    const cancelled = new TurnTracker('me', 'x');
    cancelled.started('turn', 't1');
    expect(cancelled.feed(at({ type: 'turn_cancelled', turnId: 't1', note: 'cancelled by a driver' }))).toMatchObject({ end: 'cancelled' });
    const interrupted = new TurnTracker('me', 'x');
    interrupted.started('turn', 't1');
    expect(interrupted.feed(at({ type: 'turn_interrupted', turnId: 't1', reason: 'shutdown' }))).toMatchObject({ end: 'interrupted' });
  });
});
