import { describe, expect, it } from 'vitest';
import { FakeClock } from '@tandem/testkit';
import type { EventBody as EngineEvent } from '@tandem/shared';
import { MAX_ALONE_RETRIES } from './backoff.js';
import type { ProvidersConfig } from './config.js';
import { ApiKey } from './credentials.js';
import { Governor } from './governor.js';
import { ProviderError } from './provider-error.js';
import { resolveModelClient } from './resolve.js';
import { bearer, configWith, drain, fakeEnv, OPENAI_KEY, OPENAI_KEY_2, recorder, testModel } from './testing/chain-fixture.test-helper.js';
import { fakeModelServerPerTest } from './testing/fake-server.test-helper.js';

/**
 * One key is not a lockout (issue 9): through the real openai/anthropic SDKs against the fake
 * model server, on a FakeClock that runs its sleeps at once and records them.
 */
const fake = fakeModelServerPerTest();
// Sleeps up to 200 s run at once (backoffs, a 2-minute Retry-After); the 300 s stall watchdogs still wait.

function setup(models = [testModel('openai/m-a')], openaiKeys = OPENAI_KEY, extra: ProvidersConfig = {}) {
  const clock = new FakeClock({ auto: true, autoLimitMs: 200_000 });
  const rec = recorder();
  const governor = new Governor({ clock });
  const client = resolveModelClient(models[0]!.id, {
    env: fakeEnv(fake.server, openaiKeys),
    config: configWith(models, extra),
    clock,
    governor,
    onEvent: rec.onEvent,
  });
  return { clock, rec, governor, client };
}

const retries = (events: EngineEvent[]) => events.filter((e): e is Extract<EngineEvent, { type: 'model_retry' }> => e.type === 'model_retry');
const firstKey = new ApiKey('openai', OPENAI_KEY, 'test').id;

describe('resilient model client: a lone key', () => {
  it('keeps retrying a rate-limited lone key with backoff (visible model_retry), past the in-place limit, and never cools it down', async () => {
    fake.server.script('m-a', { status: 429 }, { status: 429 }, { status: 429 }, { status: 429 }, { status: 429 }, { text: 'at last' });
    const { clock, rec, governor, client } = setup();
    const out = await drain(client);
    expect(out.error).toBeUndefined();
    expect(out.text).toBe('at last');
    const seen = retries(rec.events);
    expect(seen.map((e) => [e.attempt, e.reason])).toEqual([1, 2, 3, 4, 5].map((n) => [n, 'rate limited (HTTP 429)']));
    // 1, 2, 4, 8, 16 s plus up to 10 % jitter; the fourth and fifth are past the three in-place retries of before.
    [1000, 2000, 4000, 8000, 16000].forEach((base, i) => {
      expect(seen[i]!.delayMs).toBeGreaterThanOrEqual(base);
      expect(seen[i]!.delayMs).toBeLessThanOrEqual(base * 1.1);
    });
    expect(clock.sleeps).toEqual(seen.map((e) => e.delayMs));
    expect(governor.isCooling(firstKey)).toBe(false);
    expect(fake.server.requests.map(bearer)).toEqual(Array(6).fill(OPENAI_KEY));
  });

  it('waits out a Retry-After longer than a minute when there is nowhere else to go', async () => {
    fake.server.script('m-a', { status: 429, headers: { 'retry-after': '120' } }, { text: 'after two minutes' });
    const { clock, rec, governor, client } = setup();
    const start = clock.now();
    const out = await drain(client);
    expect(out.text).toBe('after two minutes');
    expect(clock.now() - start).toBeGreaterThanOrEqual(120_000);
    expect(retries(rec.events)).toEqual([{ type: 'model_retry', model: 'openai/m-a', attempt: 1, delayMs: 120_000, reason: 'rate limited (HTTP 429)' }]);
    expect(governor.isCooling(firstKey)).toBe(false);
  });

  it('gives up after its retries with a rate_limit error, and the next request tries the same key at once (no lockout)', async () => {
    fake.server.script('m-a', ...Array.from({ length: MAX_ALONE_RETRIES + 1 }, () => ({ status: 429 })), { text: 'next turn works' });
    const { clock, governor, client } = setup();
    const out = await drain(client);
    expect(out.error).toBeInstanceOf(ProviderError);
    expect((out.error as ProviderError).kind).toBe('rate_limit');
    expect(fake.server.requests).toHaveLength(MAX_ALONE_RETRIES + 1);
    expect(governor.isCooling(firstKey)).toBe(false);
    const sleptBefore = clock.sleeps.length;
    const again = await drain(client);
    expect(again.text).toBe('next turn works');
    expect(clock.sleeps.length).toBe(sleptBefore); // no wait: the key was never set aside
  });

  it('cools the key down only when another model can answer, for config.json keyCooldownMs', async () => {
    const models = [testModel('openai/m-a', { fallback: 'anthropic/m-b' }), testModel('anthropic/m-b')];
    fake.server.script('m-a', { status: 429, headers: { 'retry-after': '3600' } }, { text: 'back on a' });
    fake.server.script('m-b', { text: 'b answers' });
    const { clock, rec, governor, client } = setup(models, OPENAI_KEY, { keyCooldownMs: 90_000 });
    expect((await drain(client)).text).toBe('b answers');
    expect(rec.events.filter((e) => e.type === 'model_fallback')).toHaveLength(1);
    expect(governor.isCooling(firstKey)).toBe(true);
    // Retry-After (1 h) is longer than the configured cooldown, so it sets the length here.
    expect(governor.cooldown(firstKey)!.until - clock.now()).toBe(3_600_000);
  });

  it('uses the configured cooldown for a rotated key', async () => {
    fake.server.script('m-a', { status: 429 }, { text: 'second key' }, { text: 'first key again' });
    const { clock, governor, client } = setup([testModel('openai/m-a')], `${OPENAI_KEY},${OPENAI_KEY_2}`, { keyCooldownMs: 30_000 });
    expect((await drain(client)).text).toBe('second key');
    expect(governor.cooldown(firstKey)!.until - clock.now()).toBe(30_000);
    await clock.advance(30_000);
    expect(governor.isCooling(firstKey)).toBe(false);
    expect((await drain(client)).text).toBe('first key again');
    expect(bearer(fake.server.requests.at(-1)!)).toBe(OPENAI_KEY);
  });

  it('waits for a lone key that an earlier rate limit set aside, instead of failing at once', async () => {
    fake.server.script('m-a', { text: 'waited for the cooldown' });
    const { clock, rec, governor, client } = setup();
    governor.coolDown(firstKey, 45_000, 'rate_limit');
    const out = await drain(client);
    expect(out.text).toBe('waited for the cooldown');
    expect(clock.sleeps).toContain(45_000);
    expect(retries(rec.events)).toEqual([
      { type: 'model_retry', model: 'openai/m-a', attempt: 1, delayMs: 45_000, reason: 'every key is cooling down after a rate limit' },
    ]);
  });

  it('still fails at once for a lone key set aside after an account error (billing, auth)', async () => {
    const { governor, client } = setup();
    governor.coolDown(firstKey, 45_000, 'billing');
    const out = await drain(client);
    expect((out.error as ProviderError).kind).toBe('rate_limit');
    expect(fake.server.requests).toHaveLength(0);
  });
});
