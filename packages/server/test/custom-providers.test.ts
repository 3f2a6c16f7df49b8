import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeReply } from '@tandem/testkit';
import { driverSession, nextEvent } from './mcp-harness.js';
import { fakeModelBed, startTestServer, tempDir } from './server-harness.js';

/**
 * Providers of one's own (config.json `providers.NAME` with `api` and `baseURL`) against the
 * scripted model server, through the real SDKs: listed, usable as a session's model and with
 * /model, the key from `apiKeyEnv` in the right header (OpenAI: Authorization Bearer;
 * Anthropic: x-api-key), extra headers sent, and a wrong key or base URL said plainly.
 */
const bed = fakeModelBed();

async function setup(extraProviders: Record<string, unknown> = {}) {
  const dataDir = (await tempDir('tandem-data-')).path;
  const providers = {
    mine: {
      api: 'openai',
      baseURL: bed.fake.openaiBaseURL,
      apiKeyEnv: 'MINE_KEY',
      headers: { 'x-team': 'blue' },
      models: [{ id: 'coder-1', contextWindow: 32_000, price: { input: 0.5, output: 1.5 } }],
    },
    gateway: { api: 'anthropic', baseURL: bed.fake.anthropicBaseURL, apiKeyEnv: 'GATEWAY_KEY', models: [{ id: 'big', label: 'Big one' }] },
    ...extraProviders,
  };
  writeFileSync(join(dataDir, 'config.json'), `${JSON.stringify({ providers })}\n`);
  bed.server = await startTestServer({ env: { ...bed.env(), MINE_KEY: 'mine-secret', GATEWAY_KEY: 'gateway-secret' }, dataDir });
  return { server: bed.server, dataDir };
}

describe('providers of one’s own', () => {
  it('are listed, and answer as a session’s model and after /model, each key in its format’s header', async () => {
    const { server } = await setup();
    const { client, sessionId } = await driverSession(server);
    const { models } = await client.ok('models:list', {});
    expect(models.find((m) => m.id === 'mine/coder-1')).toMatchObject({ provider: 'mine', contextWindow: 32_000, tools: true });
    expect(models.find((m) => m.id === 'gateway/big')).toMatchObject({ provider: 'gateway', label: 'Big one' });

    await client.ok('session:configure', { sessionId, model: 'mine/coder-1' });
    bed.fake.enqueue({ text: 'from mine' });
    await client.ok('session:send', { sessionId, text: 'hello' });
    const first = await nextEvent(client, 'turn_done');
    const openai = bed.fake.requests.at(-1)!;
    expect(openai.path).toBe('/v1/chat/completions');
    expect(openai.model).toBe('coder-1');
    expect(openai.headers.authorization).toBe('Bearer mine-secret');
    expect(openai.headers['x-team']).toBe('blue');
    expect(client.events.some((e) => e.type === 'assistant_text' && e.text === 'from mine')).toBe(true);

    await client.ok('session:configure', { sessionId, model: 'gateway/big' });
    bed.fake.enqueue({ text: 'from the gateway' });
    await client.ok('session:send', { sessionId, text: 'and now?' });
    await nextEvent(client, 'turn_done', first.seq);
    const anthropic = bed.fake.requests.at(-1)!;
    expect(anthropic.path).toBe('/v1/messages');
    expect(anthropic.model).toBe('big');
    // The Anthropic SDK sends an API key as a bearer token, beside its own version header.
    expect(anthropic.headers.authorization).toBe('Bearer gateway-secret');
    expect(anthropic.headers['anthropic-version']).toBeTruthy();
    expect(JSON.stringify(anthropic.headers)).not.toContain('mine-secret');
  });

  it('any model id of the provider works, with default limits and a warning', async () => {
    const { server } = await setup();
    const client = await server.connect('alice');
    const { session } = await client.ok('session:create', { model: 'mine/another-model' });
    const { events } = await client.ok('session:attach', { sessionId: session.id, role: 'driver' });
    expect(events.some((e) => e.type === 'model_warning' && e.message.startsWith('unknown model mine/another-model'))).toBe(true);
    bed.fake.enqueue({ text: 'fine' });
    await client.ok('session:send', { sessionId: session.id, text: 'hi' });
    await nextEvent(client, 'turn_done');
    expect(bed.fake.requests.at(-1)!.model).toBe('another-model');
  });

  it('take part in fallback chains', async () => {
    const { server } = await setup({
      flaky: { api: 'openai', baseURL: bed.fake.openaiBaseURL, models: [{ id: 'one', fallback: 'gateway/big' }] },
    });
    const client = await server.connect('alice');
    const { session } = await client.ok('session:create', { model: 'flaky/one' });
    await client.ok('session:attach', { sessionId: session.id, role: 'driver' });
    bed.fake.setHandler((req): FakeReply => (req.format === 'anthropic' ? { text: 'the gateway answered' } : { status: 401 }));
    await client.ok('session:send', { sessionId: session.id, text: 'hi' });
    const fallback = await nextEvent(client, 'model_fallback');
    expect(fallback).toMatchObject({ from: 'flaky/one', to: 'gateway/big' });
    await nextEvent(client, 'turn_done');
    expect(client.events.some((e) => e.type === 'assistant_text' && e.text === 'the gateway answered')).toBe(true);
  });

  it('a wrong key is said plainly, naming the provider', async () => {
    const { server } = await setup();
    bed.fake.setHandler((req): FakeReply => (req.headers.authorization === 'Bearer right-key' ? { text: 'ok' } : { status: 401 }));
    const client = await server.connect('alice');
    const { session } = await client.ok('session:create', { model: 'mine/coder-1' });
    await client.ok('session:attach', { sessionId: session.id, role: 'driver' });
    await client.ok('session:send', { sessionId: session.id, text: 'hi' });
    const error = await nextEvent(client, 'agent_error');
    expect(error.message).toContain('mine model coder-1 failed (HTTP 401): check the API key for this provider');
    expect(error.message).not.toContain('mine-secret');
  });

  it('a wrong base URL is said plainly', async () => {
    const { server } = await setup({ typo: { api: 'openai', baseURL: `${bed.fake.url}/wrong/v1`, models: [{ id: 'x' }] } });
    const client = await server.connect('alice');
    const { session } = await client.ok('session:create', { model: 'typo/x' });
    await client.ok('session:attach', { sessionId: session.id, role: 'driver' });
    await client.ok('session:send', { sessionId: session.id, text: 'hi' });
    const error = await nextEvent(client, 'agent_error');
    expect(error.message).toContain('typo model x failed (HTTP 404): nothing answers at that address; check the base URL and the model name');
  });

  it('a provider without a key variable set is named with the variable to set', async () => {
    const { server } = await setup({ needy: { api: 'openai', baseURL: bed.fake.openaiBaseURL, apiKeyEnv: 'NEEDY_KEY' } });
    const client = await server.connect('alice');
    const { session } = await client.ok('session:create', { model: 'needy/m' });
    const { events } = await client.ok('session:attach', { sessionId: session.id, role: 'driver' });
    const warnings = events.flatMap((e) => (e.type === 'model_warning' ? [e.message] : []));
    expect(warnings).toContain('no API key for needy: set NEEDY_KEY or add apiKeys under providers.needy in config.json');
  });
});
