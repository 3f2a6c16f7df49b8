import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '@tandem/shared';
import { EventsInEffect } from './events-in-effect.js';
import { PartialText } from './partial-text.js';

let seq = 0;
const ev = (body: Record<string, unknown>): SessionEvent => ({ sessionId: 's', seq: ++seq, ts: '2026-12-03T00:00:00.000Z', ...body }) as SessionEvent;

describe('what a late attacher is given while workers run', () => {
  it("a worker's own turn and context events never replace or end the session's turn", () => {
    const effect = new EventsInEffect();
    const turn = ev({ type: 'turn_started', turnId: 't1', model: 'm', agent: 'commander' });
    const started = ev({ type: 'agent_started', agent: 'reviewer', taskId: 'k1', parent: 'commander', task: 'x', visible: true });
    const usage = ev({ type: 'context_usage', usedTokens: 1, windowTokens: 10, percent: 10, agent: 'commander' });
    for (const e of [turn, started, usage]) effect.observe(e);
    effect.observe(ev({ type: 'turn_started', turnId: 'w1', model: 'm', agent: 'reviewer', taskId: 'k1' }));
    effect.observe(ev({ type: 'context_usage', usedTokens: 5, windowTokens: 10, percent: 50, agent: 'reviewer', taskId: 'k1' }));
    effect.observe(ev({ type: 'turn_done', turnId: 'w1', iterations: 1, agent: 'reviewer', taskId: 'k1' }));
    expect(effect.before(1000)).toEqual([turn, started, usage]);
  });

  it('keeps one partial reply per speaker, each tagged with its agent and task', () => {
    const partial = new PartialText();
    partial.observe(ev({ type: 'text_delta', turnId: 'w1', delta: 'Rev', agent: 'reviewer', taskId: 'k1', ephemeral: true }));
    partial.observe(ev({ type: 'text_delta', turnId: 'w2', delta: 'Tes', agent: 'tester', taskId: 'k2', ephemeral: true }));
    partial.observe(ev({ type: 'text_delta', turnId: 'w1', delta: 'iew', agent: 'reviewer', taskId: 'k1', ephemeral: true }));
    expect(partial.current()).toEqual([
      { turnId: 'w1', text: 'Review', agent: 'reviewer', taskId: 'k1' },
      { turnId: 'w2', text: 'Tes', agent: 'tester', taskId: 'k2' },
    ]);
    partial.observe(ev({ type: 'assistant_text', turnId: 'w1', iteration: 1, text: 'Review', agent: 'reviewer', taskId: 'k1' }));
    expect(partial.current().map((p) => p.agent)).toEqual(['tester']);
    // The session's turn ending ends every reply of its workers.
    partial.observe(ev({ type: 'turn_cancelled', turnId: 't1', note: 'x', agent: 'commander' }));
    expect(partial.current()).toEqual([]);
  });
});
