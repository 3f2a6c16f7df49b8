import { describe, expect, it } from 'vitest';
import { FakeClock } from '@tandem/testkit';
import { ApiKey } from './credentials.js';
import { Governor, KEY_COOLDOWN_MS } from './governor.js';
import { ProviderError } from './provider-error.js';
import { resolveModelClient } from './resolve.js';
import { bearer, configWith, drain, fakeEnv, OPENAI_KEY, OPENAI_KEY_2, recorder, testModel } from './testing/chain-fixture.test-helper.js';
import { fakeModelServerPerTest } from './testing/fake-server.test-helper.js';

const fake = fakeModelServerPerTest();

function setup(models = [testModel('openai/m-a')], openaiKeys = OPENAI_KEY) {
  const clock = new FakeClock({ auto: true });
  const rec = recorder();
  const governor = new Governor({ clock });
  const client = resolveModelClient(models[0]!.id, {
    env: fakeEnv(fake.server, openaiKeys),
    config: configWith(models),
    clock,
    governor,
    onEvent: rec.onEvent,
  });
  return { clock, rec, governor, client };
}

describe('resilient model client: retries and fallback', () => {
  it('waits out a 429 Retry-After on the clock, then answers from the same model', async () => {
    fake.server.script('m-a', { status: 429, headers: { 'retry-after': '2' } }, { text: 'after the wait' });
    const { clock, rec, client } = setup();
    const start = clock.now();
    const out = await drain(client);
    expect(out.error).toBeUndefined();
    expect(out.text).toBe('after the wait');
    expect(clock.now() - start).toBeGreaterThanOrEqual(2000);
    expect(rec.events).toEqual([{ type: 'model_retry', model: 'openai/m-a', attempt: 1, delayMs: 2000, reason: 'rate limited (HTTP 429)' }]);
    expect(fake.server.requests).toHaveLength(2);
    expect(client.lastModel).toBe('openai/m-a');
  });

  it('does not retry a 401 and says plainly what to do', async () => {
    fake.server.script('m-a', { status: 401 }, { text: 'never reached' });
    const { rec, client } = setup();
    const out = await drain(client);
    expect(out.error).toBeInstanceOf(ProviderError);
    const err = out.error as ProviderError;
    expect(err.kind).toBe('auth');
    expect(err.message).toBe('openai model m-a failed (HTTP 401): check the API key for this provider.');
    expect(fake.server.requests).toHaveLength(1);
    expect(rec.events).toEqual([]);
  });

  it('retries a 500 with 1 s, 2 s, 4 s backoff, then falls back to a model on the other protocol', async () => {
    const models = [testModel('openai/m-a', { fallback: 'anthropic/m-b' }), testModel('anthropic/m-b')];
    fake.server.script('m-a', { status: 500 }, { status: 500 }, { status: 500 }, { status: 500 });
    fake.server.script('m-b', { chunks: ['from ', 'claude'] });
    const { clock, rec, client } = setup(models);
    const out = await drain(client);
    expect(out.error).toBeUndefined();
    expect(out.text).toBe('from claude');
    const retries = rec.events.filter((e) => e.type === 'model_retry');
    expect(retries.map((e) => (e.type === 'model_retry' ? e.attempt : 0))).toEqual([1, 2, 3]);
    const delays = clock.sleeps;
    expect(delays).toHaveLength(3);
    [1000, 2000, 4000].forEach((base, i) => {
      expect(delays[i]).toBeGreaterThanOrEqual(base);
      expect(delays[i]).toBeLessThanOrEqual(base * 1.1);
    });
    expect(rec.events.at(-1)).toEqual({
      type: 'model_fallback',
      from: 'openai/m-a',
      to: 'anthropic/m-b',
      reason: 'server error (HTTP 500), 3 retries spent',
    });
    expect(fake.server.requests.map((r) => r.path)).toEqual([...Array(4).fill('/v1/chat/completions'), '/v1/messages']);
    expect(client.lastModel).toBe('anthropic/m-b');
    expect(client.id).toBe('openai/m-a');
  });

  it('ends an A→B→A chain with an error listing what was tried', async () => {
    const models = [testModel('openai/m-a', { fallback: 'anthropic/m-b' }), testModel('anthropic/m-b', { fallback: 'openai/m-a' })];
    fake.server.script('m-a', { status: 401 });
    fake.server.script('m-b', { status: 401 });
    const { rec, client } = setup(models);
    const out = await drain(client);
    const err = out.error as ProviderError;
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.message).toBe(
      'No model could answer: tried openai/m-a (authentication failed (HTTP 401)), anthropic/m-b (authentication failed (HTTP 401)); ' +
        'the fallback chain loops back to openai/m-a, so it stopped there. Check the keys and endpoints of these providers, or pick another model.',
    );
    expect(fake.server.requests).toHaveLength(2);
    expect(rec.events.filter((e) => e.type === 'model_fallback')).toHaveLength(1);
  });

  it('fails over when the stream is cut before any content', async () => {
    const models = [testModel('openai/m-a', { fallback: 'anthropic/m-b' }), testModel('anthropic/m-b')];
    const cut = { chunks: ['never', ' seen'], cutAfterChunks: 1 };
    fake.server.script('m-a', cut, cut, cut, cut);
    fake.server.script('m-b', { text: 'second model' });
    const { rec, client } = setup(models);
    const out = await drain(client);
    expect(out.error).toBeUndefined();
    expect(out.text).toBe('second model');
    expect(rec.events.at(-1)).toMatchObject({ type: 'model_fallback', from: 'openai/m-a', to: 'anthropic/m-b' });
    expect(client.lastModel).toBe('anthropic/m-b');
  });

  it('does not fail over once text was streamed: it throws with afterContent', async () => {
    const models = [testModel('openai/m-a', { fallback: 'anthropic/m-b' }), testModel('anthropic/m-b')];
    fake.server.script('m-a', { chunks: ['Hel', 'lo', ' world'], cutAfterChunks: 2 });
    fake.server.script('m-b', { text: 'must not be asked' });
    const { rec, client } = setup(models);
    const out = await drain(client);
    expect(out.text).toBe('Hel');
    expect(out.error).toBeInstanceOf(ProviderError);
    expect((out.error as ProviderError).details.afterContent).toBe(true);
    expect(fake.server.requests.filter((r) => r.model === 'm-b')).toHaveLength(0);
    expect(rec.events).toEqual([]);
  });

  it('passes a 400 straight to the user as a sentence, without retrying', async () => {
    const models = [testModel('openai/m-a', { fallback: 'anthropic/m-b' }), testModel('anthropic/m-b')];
    fake.server.script('m-a', { status: 400, errorBody: { error: { message: 'Invalid schema for function', type: 'invalid_request_error' } } });
    const { client } = setup(models);
    const out = await drain(client);
    const err = out.error as ProviderError;
    expect(err.kind).toBe('bad_request');
    expect(err.message).toMatch(/^openai model m-a failed \(HTTP 400\): .+\.$/);
    expect(err.message).not.toContain('{');
    expect(fake.server.requests).toHaveLength(1);
  });

  it('rotates to the second key when the first is rate limited, and keeps the first out for 10 minutes', async () => {
    fake.server.script('m-a', { status: 429 }, { text: 'one' }, { text: 'two' }, { text: 'three' });
    const { clock, governor, client } = setup([testModel('openai/m-a')], `${OPENAI_KEY},${OPENAI_KEY_2}`);
    const first = new ApiKey('openai', OPENAI_KEY, 'test').id;
    expect((await drain(client)).text).toBe('one');
    expect(fake.server.requests.map(bearer)).toEqual([OPENAI_KEY, OPENAI_KEY_2]);
    expect(governor.isCooling(first)).toBe(true);
    expect(clock.sleeps).toEqual([]);

    await clock.advance(9 * 60_000);
    expect((await drain(client)).text).toBe('two');
    expect(bearer(fake.server.requests[2]!)).toBe(OPENAI_KEY_2);

    await clock.advance(KEY_COOLDOWN_MS - 9 * 60_000);
    expect((await drain(client)).text).toBe('three');
    expect(bearer(fake.server.requests[3]!)).toBe(OPENAI_KEY);
    expect(governor.isCooling(first)).toBe(false);
  });

  it('moves to the next model when every key of the provider is cooling down', async () => {
    const models = [testModel('openai/m-a', { fallback: 'anthropic/m-b' }), testModel('anthropic/m-b')];
    fake.server.script('m-a', { status: 402 }, { status: 402 });
    fake.server.script('m-b', { text: 'billing elsewhere' });
    const { rec, client } = setup(models, `${OPENAI_KEY},${OPENAI_KEY_2}`);
    const out = await drain(client);
    expect(out.text).toBe('billing elsewhere');
    expect(fake.server.requests.slice(0, 2).map(bearer)).toEqual([OPENAI_KEY, OPENAI_KEY_2]);
    expect(rec.events).toEqual([{ type: 'model_fallback', from: 'openai/m-a', to: 'anthropic/m-b', reason: 'no balance or quota (HTTP 402)' }]);
  });

  it('skips a fallback model whose provider has no key, saying why', async () => {
    const models = [testModel('openai/m-a', { fallback: 'groq/m-g' }), testModel('groq/m-g', { fallback: 'anthropic/m-b' }), testModel('anthropic/m-b')];
    fake.server.script('m-a', { status: 401 });
    fake.server.script('m-b', { text: 'claude answers' });
    const { rec, client } = setup(models);
    const out = await drain(client);
    expect(out.text).toBe('claude answers');
    expect(rec.events.map((e) => (e.type === 'model_fallback' ? `${e.from}>${e.to}: ${e.reason}` : e.type))).toEqual([
      'openai/m-a>groq/m-g: authentication failed (HTTP 401)',
      'groq/m-g>anthropic/m-b: no API key configured',
    ]);
  });

  it('says in one sentence how to set a key when no model of the chain has one, trying none of them', async () => {
    const models = [testModel('openai/m-a', { fallback: 'groq/m-g' }), testModel('groq/m-g', { fallback: 'anthropic/m-b' }), testModel('anthropic/m-b')];
    const rec = recorder();
    const { OPENAI_API_KEY: _o, ANTHROPIC_API_KEY: _a, ...keyless } = fakeEnv(fake.server);
    const client = resolveModelClient('openai/m-a', { env: keyless, config: configWith(models), clock: new FakeClock({ auto: true }), onEvent: rec.onEvent });
    const out = await drain(client);
    expect(out.error).toBeInstanceOf(ProviderError);
    expect((out.error as ProviderError).kind).toBe('auth');
    expect((out.error as ProviderError).message).toBe(
      'No model can answer: no API key is set for openai, groq or anthropic. To use openai/m-a, set OPENAI_API_KEY or add apiKeys under providers.openai in config.json ' +
        '(a variable must be in the environment the server started with: run `tandem restart` after setting it; config.json is read again on the next turn).',
    );
    expect(rec.events).toEqual([]);
    expect(fake.server.requests).toHaveLength(0);

    // With a key further down the chain, the walk is as before: each hop said, the keyed model answers.
    fake.server.script('m-b', { text: 'claude answers' });
    const { OPENAI_API_KEY: _k, ...anthropicOnly } = fakeEnv(fake.server);
    const walked = recorder();
    const second = resolveModelClient('openai/m-a', {
      env: anthropicOnly,
      config: configWith(models),
      clock: new FakeClock({ auto: true }),
      onEvent: walked.onEvent,
    });
    expect((await drain(second)).text).toBe('claude answers');
    expect(walked.events.map((e) => (e.type === 'model_fallback' ? `${e.from}>${e.to}: ${e.reason}` : e.type))).toEqual([
      'openai/m-a>groq/m-g: no API key configured',
      'groq/m-g>anthropic/m-b: no API key configured',
    ]);
  });

  it('does not sit out a long Retry-After in place: it moves to the next model', async () => {
    const models = [testModel('openai/m-a', { fallback: 'anthropic/m-b' }), testModel('anthropic/m-b')];
    fake.server.script('m-a', { status: 503, headers: { 'retry-after': '3600' } });
    fake.server.script('m-b', { text: 'no hour-long wait' });
    const { clock, rec, client } = setup(models);
    const out = await drain(client);
    expect(out.text).toBe('no hour-long wait');
    expect(clock.sleeps).toEqual([]);
    expect(rec.events).toEqual([{ type: 'model_fallback', from: 'openai/m-a', to: 'anthropic/m-b', reason: 'server error (HTTP 503)' }]);
  });

  it('stops at once when cancelled during a backoff, as an aborted ProviderError', async () => {
    fake.server.script('m-a', { status: 500 }, { text: 'too late' });
    const clock = new FakeClock();
    const client = resolveModelClient('openai/m-a', { env: fakeEnv(fake.server), config: configWith([testModel('openai/m-a')]), clock });
    const ac = new AbortController();
    const pending = drain(client, undefined, ac.signal);
    const backingOff = () => clock.sleeps.includes(1000) || clock.sleeps.some((ms) => ms > 1000 && ms <= 1100);
    for (let i = 0; i < 400 && !backingOff(); i++) await new Promise((r) => setTimeout(r, 5));
    expect(backingOff()).toBe(true);
    ac.abort();
    const out = await pending;
    expect(out.error).toBeInstanceOf(ProviderError);
    expect((out.error as ProviderError).kind).toBe('aborted');
    expect(fake.server.requests).toHaveLength(1);
  });

  it('walks an explicit chain instead of catalog links, and a pinned model does not fall back', async () => {
    const models = [testModel('openai/m-a', { fallback: 'openai/m-c' }), testModel('anthropic/m-b'), testModel('openai/m-c')];
    fake.server.script('m-a', { status: 401 }, { status: 401 });
    fake.server.script('m-b', { text: 'memory model two' });
    const config = configWith(models);
    const env = fakeEnv(fake.server);
    const walked = resolveModelClient('openai/m-a', { env, config, chain: ['openai/m-a', 'anthropic/m-b'], clock: new FakeClock({ auto: true }) });
    expect((await drain(walked)).text).toBe('memory model two');
    const pinned = resolveModelClient('openai/m-a', { env, config, chain: ['openai/m-a'], clock: new FakeClock({ auto: true }) });
    expect(((await drain(pinned)).error as ProviderError).kind).toBe('auth');
    expect(fake.server.requests.map((r) => r.model)).toEqual(['m-a', 'm-b', 'm-a']);
  });

  it('says which setting is missing when a config-only provider has no endpoint, and moves on', async () => {
    const models = [testModel('lab/m-x', { protocol: 'openai-chat', fallback: 'openai/m-a' }), testModel('openai/m-a')];
    fake.server.script('m-a', { text: 'openai answers' });
    const rec = recorder();
    const client = resolveModelClient('lab/m-x', { env: fakeEnv(fake.server), config: configWith(models), onEvent: rec.onEvent });
    expect((await drain(client)).text).toBe('openai answers');
    expect(rec.events).toEqual([{ type: 'model_fallback', from: 'lab/m-x', to: 'openai/m-a', reason: 'no base URL configured' }]);
    const alone = resolveModelClient('lab/m-x', { env: {}, config: configWith([testModel('lab/m-x')]) });
    expect(((await drain(alone)).error as Error).message).toBe('lab model m-x has no endpoint: set providers.lab.baseURL in config.json.');
  });
});
