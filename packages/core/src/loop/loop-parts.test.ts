import { describe, expect, it } from 'vitest';
import { AsyncQueue } from './async-queue.js';
import { LoopDetector } from './loop-detector.js';
import { planBatches } from './parallel-batches.js';
import { stableJson } from '../base/stable-json.js';

const call = (name: string, args: unknown, rawArgs = JSON.stringify(args) ?? '') => ({ id: 'x', name, args, rawArgs });

describe('LoopDetector', () => {
  it('treats the same arguments in another key order as the same call', () => {
    const d = new LoopDetector();
    expect(d.observe(call('read', { a: 1, b: { c: 2, d: 3 } })).action).toBe('run');
    expect(d.observe(call('read', { b: { d: 3, c: 2 }, a: 1 })).action).toBe('run');
    expect(d.observe(call('read', { a: 1, b: { c: 2, d: 3 } }))).toMatchObject({ action: 'warn', count: 3 });
    expect(d.observe(call('read', { a: 1, b: { c: 2, d: 3 } }))).toMatchObject({ action: 'warn', count: 4 });
    expect(d.observe(call('read', { a: 1, b: { c: 2, d: 3 } }))).toMatchObject({ action: 'stop', count: 5 });
  });

  it('resets on a different tool or different arguments, and compares invalid arguments by their raw text', () => {
    const d = new LoopDetector();
    d.observe(call('read', { p: 1 }));
    d.observe(call('read', { p: 1 }));
    expect(d.observe(call('list', { p: 1 })).count).toBe(1);
    expect(d.observe(call('list', { p: 2 })).count).toBe(1);
    expect(d.observe(call('list', undefined, '{bad')).count).toBe(1);
    expect(d.observe(call('list', undefined, '{bad')).count).toBe(2);
    expect(d.observe(call('list', undefined, '{worse')).count).toBe(1);
  });
});

describe('planBatches', () => {
  it('groups adjacent read-only calls and keeps writers as barriers in place', () => {
    const ro = (c: string) => c.startsWith('r');
    expect(planBatches(['r1', 'r2', 'w1', 'r3', 'w2', 'w3', 'r4', 'r5'], ro)).toEqual([['r1', 'r2'], ['w1'], ['r3'], ['w2'], ['w3'], ['r4', 'r5']]);
    expect(planBatches([], ro)).toEqual([]);
  });
});

describe('stableJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(stableJson({ b: [2, { z: 1, a: 0 }], a: null })).toBe('{"a":null,"b":[2,{"a":0,"z":1}]}');
    expect(stableJson(undefined)).toBe('undefined');
  });
});

describe('AsyncQueue', () => {
  it('delivers pushes in order, then ends or fails after the queued items', async () => {
    const q = new AsyncQueue<number>();
    q.push(1);
    q.push(2);
    setTimeout(() => {
      q.push(3);
      q.fail(new Error('boom'));
    }, 5);
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const n of q) seen.push(n);
      })(),
    ).rejects.toThrow('boom');
    expect(seen).toEqual([1, 2, 3]);
  });

  it('reports drained only after the consumer handled every item', async () => {
    const q = new AsyncQueue<string>();
    const handled: string[] = [];
    q.push('a');
    q.push('b');
    const consumer = (async () => {
      for await (const item of q) {
        await new Promise((r) => setTimeout(r, 5));
        handled.push(item);
      }
    })();
    await q.drained();
    expect(handled).toEqual(['a', 'b']);
    q.end();
    await consumer;
    await q.drained();
  });
});
