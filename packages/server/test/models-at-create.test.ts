import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './server-harness.js';

/** requirements M1: a model problem is said up front, at session:create, not mid-conversation. */
let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe('the model at session:create', () => {
  it('refuses a malformed spec or an unknown provider with bad_request and a readable message', async () => {
    server = await startTestServer({ env: {} });
    const alice = await server.connect('alice');
    const noSlash = await alice.request('session:create', { model: 'gpt-4' });
    expect(noSlash).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    const unknownProvider = await alice.request('session:create', { model: 'nosuchprovider/model-x' });
    expect(unknownProvider).toMatchObject({ ok: false, error: { code: 'bad_request', message: expect.stringContaining('nosuchprovider') } });
    for (const reply of [noSlash, unknownProvider]) {
      if (reply.ok) throw new Error('unreachable');
      expect(reply.error.message).not.toMatch(/^\s*[{[]/); // a sentence, not JSON
    }
    expect((await alice.ok('session:list', {})).sessions).toEqual([]);
  });

  it('records model_warning events in the new session: unknown model, missing key', async () => {
    server = await startTestServer({ env: {} });
    const alice = await server.connect('alice');
    const { session } = await alice.ok('session:create', { model: 'openai/not-in-the-catalog' });
    const { events } = await alice.ok('session:attach', { sessionId: session.id, role: 'viewer' });
    const warnings = events.filter((e) => e.type === 'model_warning').map((e) => (e.type === 'model_warning' ? e.message : ''));
    expect(warnings).toEqual([expect.stringContaining('unknown model openai/not-in-the-catalog'), expect.stringContaining('no API key for openai')]);
    expect(events[0]!.type).toBe('session_info');
  });
});
