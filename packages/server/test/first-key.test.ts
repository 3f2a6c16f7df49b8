import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { driverSession, nextEvent } from './mcp-harness.js';
import { fakeModelBed, startTestServer, tempDir } from './server-harness.js';

/**
 * A first run without any API key: one sentence on setting one, no walk through the fallback
 * chain; a key added to config.json then counts from the same session's next turn.
 */
const bed = fakeModelBed();

describe('a first run without an API key', () => {
  it('says how to set a key in one error, and the next turn uses a key added to config.json', async () => {
    const dataDir = (await tempDir('tandem-data-')).path;
    const { OPENAI_API_KEY: _none, ...keyless } = bed.env();
    bed.server = await startTestServer({ env: keyless, dataDir, defaultModel: 'openai/gpt-4.1-mini' });
    const { client, sessionId } = await driverSession(bed.server);

    await client.ok('session:send', { sessionId, text: 'hello' });
    const error = await nextEvent(client, 'agent_error');
    expect(error.code).toBe('auth');
    expect(error.message).toMatch(/^No model can answer: no API key is set for openai, anthropic or gemini\. To use openai\/gpt-4\.1-mini, set OPENAI_API_KEY/);
    const done = await nextEvent(client, 'turn_done');
    expect(client.persisted().some((e) => e.type === 'model_fallback')).toBe(false);
    expect(bed.fake.requests).toHaveLength(0);

    writeFileSync(join(dataDir, 'config.json'), JSON.stringify({ providers: { openai: { apiKeys: ['sk-test-added-later-0123'] } } }));
    bed.fake.enqueue({ text: 'Hello, now with a key.' });
    await client.ok('session:send', { sessionId, text: 'hello again' });
    const answered = await nextEvent(client, 'turn_done', done.seq);
    expect(answered.outcome).toBe('answered');
    expect(bed.fake.requests[0]?.headers.authorization).toBe('Bearer sk-test-added-later-0123');
  });
});
