import { describe, expect, it } from 'vitest';
import type { EventBody } from '@tandem/shared';
import type { GateCall, GateVerdict } from '@tandem/core';
import { createCallRateLimitGate, IDENTICAL_CALL_REASON } from './call-rate-limit.js';
import { FakeClock, settle } from '@tandem/testkit';

function call(n: number, tool = 'read_file', args: unknown = { path: `f${n}.txt` }): GateCall {
  return { turnId: 't1', callId: `c${n}`, tool, args, danger: 'safe', readOnly: true };
}

function setup(options: { maxCalls?: number; windowMs?: number; identicalCooldownMs?: number } = {}) {
  const clock = new FakeClock();
  const events: EventBody[] = [];
  const gate = createCallRateLimitGate({ clock, emit: (e) => events.push(e), ...options });
  return { clock, events, gate, signal: new AbortController().signal };
}

describe('createCallRateLimitGate', () => {
  it('lets 30 different calls through at once and makes the 31st wait until the minute rolls', async () => {
    const { clock, events, gate, signal } = setup();
    for (let i = 0; i < 30; i++) {
      expect(await gate.check(call(i), signal)).toEqual({ allow: true });
      await clock.advance(1000); // calls at t=0..29 s
    }
    let verdict: GateVerdict | undefined;
    void gate.check(call(30), signal).then((v) => (verdict = v));
    await settle();
    expect(verdict).toBeUndefined();
    expect(events).toEqual([
      { type: 'rate_limit_wait', callId: 'c30', tool: 'read_file', waitMs: 30_000, reason: expect.stringContaining('30 tool calls per minute') },
    ]);
    await clock.advance(29_999);
    expect(verdict).toBeUndefined();
    await clock.advance(1);
    expect(verdict).toEqual({ allow: true });
  });

  it('frees slots one by one as the oldest calls leave the window', async () => {
    const { clock, gate, signal } = setup({ maxCalls: 2, windowMs: 10_000 });
    await gate.check(call(1), signal); // t=0
    await clock.advance(4000);
    await gate.check(call(2), signal); // t=4000
    const order: string[] = [];
    void gate.check(call(3), signal).then(() => order.push('c3'));
    void gate.check(call(4), signal).then(() => order.push('c4'));
    await clock.advance(6000); // t=10000: c1 leaves, one slot
    expect(order).toEqual(['c3']);
    await clock.advance(3999);
    expect(order).toEqual(['c3']);
    await clock.advance(1); // t=14000: c2 leaves
    expect(order).toEqual(['c3', 'c4']);
  });

  it('makes an identical call within 5 s wait out the cooldown, with an event', async () => {
    const { clock, events, gate, signal } = setup();
    const same = { command: 'ls', cwd: '.' };
    await gate.check(call(1, 'run_command', same), signal);
    await clock.advance(2000);
    let verdict: GateVerdict | undefined;
    void gate.check(call(2, 'run_command', { cwd: '.', command: 'ls' }), signal).then((v) => (verdict = v));
    await settle();
    expect(events).toEqual([{ type: 'rate_limit_wait', callId: 'c2', tool: 'run_command', waitMs: 3000, reason: IDENTICAL_CALL_REASON }]);
    await clock.advance(2999);
    expect(verdict).toBeUndefined();
    await clock.advance(1);
    expect(verdict).toEqual({ allow: true });
  });

  it('holds back an identical call with long arguments (a whole file) too, and not one that differs at the end', async () => {
    const { events, gate, signal } = setup();
    const content = 'x'.repeat(20_000);
    await gate.check(call(1, 'write_file', { path: 'a.txt', content }), signal);
    expect(await gate.check(call(2, 'write_file', { path: 'a.txt', content: `${content}y` }), signal)).toEqual({ allow: true });
    void gate.check(call(3, 'write_file', { content, path: 'a.txt' }), signal);
    await settle();
    expect(events).toEqual([{ type: 'rate_limit_wait', callId: 'c3', tool: 'write_file', waitMs: 5000, reason: IDENTICAL_CALL_REASON }]);
  });

  it('does not hold back a different call or the same arguments on another tool', async () => {
    const { events, gate, signal } = setup();
    await gate.check(call(1, 'run_command', { command: 'ls' }), signal);
    expect(await gate.check(call(2, 'run_command', { command: 'ls -l' }), signal)).toEqual({ allow: true });
    expect(await gate.check(call(3, 'read_env', { command: 'ls' }), signal)).toEqual({ allow: true });
    expect(events).toEqual([]);
  });

  it('ends the wait when the turn is aborted', async () => {
    const { gate } = setup({ maxCalls: 1 });
    const ac = new AbortController();
    await gate.check(call(1), ac.signal);
    const pending = gate.check(call(2), ac.signal);
    await settle();
    ac.abort();
    expect(await pending).toEqual({ allow: false, reason: expect.stringContaining('cancelled'), outcome: 'cancelled' });
  });

  it('rejects a nonsensical configuration up front', () => {
    const clock = new FakeClock();
    expect(() => createCallRateLimitGate({ clock, emit: () => {}, maxCalls: 0 })).toThrow(/maxCalls/);
    expect(() => createCallRateLimitGate({ clock, emit: () => {}, windowMs: -1 })).toThrow(/windowMs/);
  });
});
