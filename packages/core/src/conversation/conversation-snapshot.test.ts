import { describe, expect, it } from 'vitest';
import { ConversationBuilder, type ConversationEvent } from './conversation-builder.js';

const turn = (turnId: string, text: string): ConversationEvent[] =>
  [
    { type: 'user_message', text, by: 'ana', mode: 'turn' },
    { type: 'turn_started', turnId, model: 'm' },
    { type: 'assistant_text', turnId, iteration: 1, text: 'looking' },
    { type: 'tool_call', turnId, iteration: 1, callId: `${turnId}-a`, tool: 'echo', args: { x: 1 }, danger: 'safe' },
    { type: 'tool_call', turnId, iteration: 1, callId: `${turnId}-b`, tool: 'echo', args: undefined, rawArgs: '{"x": oops', danger: 'safe' },
    { type: 'tool_result', turnId, callId: `${turnId}-a`, tool: 'echo', isError: false, output: 'x', durationMs: 1, outcome: 'ok' },
  ] as ConversationEvent[];

const rest = (turnId: string): ConversationEvent[] =>
  [
    { type: 'tool_result', turnId, callId: `${turnId}-b`, tool: 'echo', isError: true, output: 'bad args', durationMs: 1, outcome: 'error' },
    { type: 'assistant_text', turnId, iteration: 2, text: 'done' },
    { type: 'turn_done', turnId, iterations: 2, outcome: 'answered' },
  ] as ConversationEvent[];

/** Folds `before`, snapshots through JSON, restores, folds `after`; compares with one unbroken fold. */
function resumed(before: ConversationEvent[], after: ConversationEvent[]) {
  const whole = new ConversationBuilder();
  for (const e of [...before, ...after]) whole.apply(e);
  const first = new ConversationBuilder();
  for (const e of before) first.apply(e);
  const restored = ConversationBuilder.restore(JSON.parse(JSON.stringify(first.snapshot())));
  for (const e of after) restored.apply(e);
  return { whole: whole.messages, restored: restored.messages };
}

describe('ConversationBuilder snapshot', () => {
  it('continues mid-turn (open calls, the assistant message being filled) exactly as an unbroken fold', () => {
    const { whole, restored } = resumed(
      [...turn('t1', 'one'), ...rest('t1'), ...turn('t2', 'two')],
      [{ type: 'tool_call', turnId: 't2', iteration: 1, callId: 't2-c', tool: 'echo', args: {}, danger: 'safe' } as ConversationEvent, ...rest('t2')],
    );
    expect(restored).toStrictEqual(whole);
    expect(whole.filter((m) => m.role === 'assistant')[2]).toMatchObject({ toolCalls: [{ id: 't2-a' }, { id: 't2-b' }, { id: 't2-c' }] });
  });

  it('rolls back a cancelled turn and closes calls of an interrupted one after a restore', () => {
    for (const end of ['turn_cancelled', 'turn_interrupted'] as const) {
      const { whole, restored } = resumed(
        [...turn('t1', 'one'), ...rest('t1'), ...turn('t2', 'two')],
        [{ type: end, turnId: 't2', reason: 'x' } as ConversationEvent],
      );
      expect(restored).toStrictEqual(whole);
    }
  });

  it('a snapshot taken mid-message does not change with the events folded after it', () => {
    const builder = new ConversationBuilder();
    for (const e of turn('t1', 'one')) builder.apply(e);
    const snapshot = builder.snapshot();
    const json = JSON.stringify(snapshot);
    // The assistant message of iteration 1 is still being filled: more calls, its text replaced.
    builder.apply({ type: 'tool_call', turnId: 't1', iteration: 1, callId: 'late', tool: 'echo', args: {}, danger: 'safe' } as ConversationEvent);
    builder.apply({ type: 'assistant_text', turnId: 't1', iteration: 1, text: 'changed' } as ConversationEvent);
    for (const e of rest('t1')) builder.apply(e);
    expect(JSON.stringify(snapshot)).toBe(json);
    expect(builder.messages[1]).toMatchObject({ text: 'changed', toolCalls: [{ id: 't1-a' }, { id: 't1-b' }, { id: 'late' }] });
  });

  it('refuses a malformed snapshot', () => {
    expect(() => ConversationBuilder.restore({ list: [{ role: 'robot' }] })).toThrow(/role/);
    expect(() => ConversationBuilder.restore({ list: [], pendingTurnStart: 5, turnStarts: [], current: null, openCalls: [] })).toThrow(/pendingTurnStart/);
    expect(() => ConversationBuilder.restore('x')).toThrow(/not an object/);
  });
});
