import { describe, expect, it } from 'vitest';
import { FakeClock, until } from '@tandem/testkit';
import type { AdapterFactory } from './adapter-factory.js';
import { ProviderError } from './provider-error.js';
import { resolveModelClient } from './resolve.js';
import { DEFAULT_STALL_LIMITS } from './stall-guard.js';
import { configWith, drain, fakeEnv, HELLO, recorder, testModel } from './testing/chain-fixture.test-helper.js';
import type { ModelStreamEvent } from './types.js';
import { fakeModelServerPerTest } from './testing/fake-server.test-helper.js';

const fake = fakeModelServerPerTest();

describe('stalled replies', () => {
  it('abandons a reply that sends nothing for 5 minutes and retries it in place', async () => {
    fake.server.script('m-a', { hang: true }, { text: 'second try' });
    const clock = new FakeClock({ auto: true });
    const rec = recorder();
    const client = resolveModelClient('openai/m-a', { env: fakeEnv(fake.server), config: configWith([testModel('openai/m-a')]), clock, onEvent: rec.onEvent });
    const pending = drain(client);
    await until(() => fake.server.requests.length === 1 && clock.pendingSleeps() === 1);
    await clock.advance(DEFAULT_STALL_LIMITS.firstEventMs - 1);
    expect(fake.server.requests).toHaveLength(1);
    await clock.advance(1);
    const out = await pending;
    expect(out.error).toBeUndefined();
    expect(out.text).toBe('second try');
    expect(rec.events).toEqual([{ type: 'model_retry', model: 'openai/m-a', attempt: 1, delayMs: expect.any(Number), reason: 'network error' }]);
  });

  it('throws, without failing over, when a reply goes silent after its first text', async () => {
    const models = [testModel('openai/m-a', { fallback: 'anthropic/m-b' }), testModel('anthropic/m-b')];
    const clock = new FakeClock({ auto: true });
    const opened: string[] = [];
    // An adapter that streams one delta, then hangs until its request is aborted.
    const createAdapter: AdapterFactory = (_protocol, options) => ({
      id: options.id,
      async *stream(_request, signal) {
        opened.push(options.id);
        yield { type: 'text_delta', delta: 'partial' };
        await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
      },
    });
    const client = resolveModelClient('openai/m-a', { env: fakeEnv(fake.server), config: configWith(models), clock, createAdapter });
    const seen: ModelStreamEvent[] = [];
    let failure: unknown;
    const done = (async () => {
      try {
        for await (const e of client.stream(HELLO, new AbortController().signal)) seen.push(e);
      } catch (err) {
        failure = err;
      }
    })();
    await until(() => seen.length === 1 && clock.pendingSleeps() === 1);
    await clock.advance(DEFAULT_STALL_LIMITS.idleMs - 1);
    expect(failure).toBeUndefined();
    await clock.advance(1);
    await done;
    expect(seen).toEqual([{ type: 'text_delta', delta: 'partial' }]);
    expect(failure).toBeInstanceOf(ProviderError);
    expect((failure as ProviderError).details.afterContent).toBe(true);
    expect((failure as ProviderError).message).toBe(
      'openai model m-a sent nothing for 300 s: the provider may be overloaded or the connection hung; try again or pick another model.',
    );
    expect(opened).toEqual(['openai/m-a']);
  });
});
