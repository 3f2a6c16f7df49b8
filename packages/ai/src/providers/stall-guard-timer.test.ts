import { describe, expect, it } from 'vitest';
import { FakeClock, until } from '@tandem/testkit';
import { guardStalls, StallError } from './stall-guard.js';

const LIMITS = { firstEventMs: 1_000, idleMs: 1_000 };

/** A source whose next event waits for `release()`; it ends when its signal aborts. */
function gatedSource() {
  const gates: Array<() => void> = [];
  let produced = 0;
  async function* open(signal: AbortSignal): AsyncGenerator<number> {
    let fail: ((reason: unknown) => void) | undefined;
    signal.addEventListener('abort', () => fail?.(signal.reason), { once: true });
    for (;;) {
      await new Promise<void>((resolve, reject) => {
        gates.push(resolve);
        fail = reject;
      });
      yield produced++;
    }
  }
  return { open, release: () => gates.shift()?.(), waiting: () => gates.length };
}

describe('guardStalls timer', () => {
  it('keeps one timer for a whole stream, however many events it carries', async () => {
    const clock = new FakeClock();
    async function* many(): AsyncGenerator<number> {
      for (let i = 0; i < 1_000; i++) yield i;
    }
    let n = 0;
    for await (const _ of guardStalls(many, new AbortController().signal, clock, LIMITS)) n++;
    expect(n).toBe(1_000);
    expect(clock.sleeps).toEqual([LIMITS.firstEventMs]);
    expect(clock.pendingSleeps()).toBe(0);
  });

  it('does not stall a stream whose events keep coming, though it runs far longer than the limit', async () => {
    const clock = new FakeClock();
    const source = gatedSource();
    const seen: number[] = [];
    let failure: unknown;
    const done = (async () => {
      try {
        for await (const e of guardStalls(source.open, new AbortController().signal, clock, LIMITS)) seen.push(e);
      } catch (err) {
        failure = err;
      }
    })();
    for (let i = 0; i < 10; i++) {
      await until(() => source.waiting() === 1);
      await clock.advance(900);
      source.release();
      await until(() => seen.length === i + 1);
    }
    expect(failure).toBeUndefined();
    // Ten events 900 ms apart: the one timer woke, saw recent events and slept the rest each time.
    await until(() => source.waiting() === 1);
    await clock.advance(999);
    expect(failure).toBeUndefined();
    await clock.advance(1);
    await done;
    expect(failure).toBeInstanceOf(StallError);
    expect((failure as StallError).phase).toBe('idle');
    expect(seen).toHaveLength(10);
  });

  it('does not count the time the consumer holds an event as silence', async () => {
    const clock = new FakeClock();
    const source = gatedSource();
    const it = guardStalls(source.open, new AbortController().signal, clock, LIMITS)[Symbol.asyncIterator]();
    const first = it.next();
    await until(() => source.waiting() === 1);
    source.release();
    expect((await first).value).toBe(0);
    await clock.advance(5_000); // the consumer is busy for five limits
    const second = it.next();
    await until(() => source.waiting() === 1);
    await clock.advance(999);
    source.release();
    expect((await second).value).toBe(1);
    await it.return(undefined);
  });

  it('times the silence after the first event by the idle limit when it is the shorter one', async () => {
    const clock = new FakeClock();
    const source = gatedSource();
    let failure: unknown;
    const done = (async () => {
      try {
        for await (const _ of guardStalls(source.open, new AbortController().signal, clock, { firstEventMs: 60_000, idleMs: 1_000 })) {
          // consume
        }
      } catch (err) {
        failure = err;
      }
    })();
    await until(() => source.waiting() === 1);
    source.release();
    await until(() => source.waiting() === 1);
    await clock.advance(999);
    expect(failure).toBeUndefined();
    await clock.advance(1);
    await done;
    expect(failure).toEqual(new StallError(1_000, 'idle'));
  });
});
