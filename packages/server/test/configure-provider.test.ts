import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { driverSession, nextEvent } from './mcp-harness.js';
import { fakeModelBed, startTestServer } from './server-harness.js';

/**
 * configure_provider through real turns: always asked, the key withheld from every event, the
 * audit log, the logs and the next model request, stored encrypted, and used by the next
 * session of that provider without a restart.
 */
const bed = fakeModelBed();
const KEY = 'sk-ant-test-9f3c2b7e1d4a6058';

function filesWith(dir: string, needle: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...filesWith(path, needle));
    else if (readFileSync(path).includes(needle)) found.push(path);
  }
  return found;
}

describe('configure_provider', () => {
  it('asks every time, keeps the key out of everything but the secret store, and the next session uses it', async () => {
    bed.server = await startTestServer({ env: bed.env() });
    const { client, sessionId } = await driverSession(bed.server);
    const call = {
      name: 'configure_provider',
      args: { provider: 'anthropic', apiKey: KEY, baseURL: bed.fake.anthropicBaseURL, model: 'anthropic/claude-sonnet-4-5' },
    };
    bed.fake.enqueue({ toolCalls: [call] }, { text: 'Done.' }, { toolCalls: [call] }, { text: 'Again.' });

    await client.ok('session:send', { sessionId, text: `use anthropic with key ${'<redacted by the user>'}` });
    const first = await nextEvent(client, 'permission_request');
    expect(first.tool).toBe('configure_provider');
    expect(JSON.stringify(first)).not.toContain(KEY);
    expect(first.args).toMatchObject({ provider: 'anthropic', apiKey: '[secret: given to the tool only]' });
    expect(first.scopes ?? []).toEqual([]);
    // Even a lasting allow is taken as once: the next call asks again.
    await client.ok('permission:respond', { sessionId, requestId: first.requestId, decision: 'allow_forever' });
    const result = await nextEvent(client, 'tool_result');
    expect(result).toMatchObject({ isError: false });
    expect(result.output).toBe(
      'Configured anthropic: key stored (encrypted; it will not be shown again); base URL ' +
        `${bed.fake.anthropicBaseURL}; default model for new sessions anthropic/claude-sonnet-4-5. Sessions created from now on use it; no restart needed.`,
    );
    const done = await nextEvent(client, 'turn_done');
    await client.ok('session:send', { sessionId, text: 'once more' });
    const second = await nextEvent(client, 'permission_request', done.seq);
    await client.ok('permission:respond', { sessionId, requestId: second.requestId, decision: 'deny_once' });
    await nextEvent(client, 'turn_done', done.seq);

    // The model's next request shows the placeholder, never the key.
    const afterCall = bed.fake.requests[1]!;
    expect(JSON.stringify(afterCall.body)).toContain('[secret: given to the tool only]');
    expect(bed.fake.requests.every((r) => !JSON.stringify(r.body).includes(KEY))).toBe(true);
    expect(JSON.stringify(client.events)).not.toContain(KEY);
    // On disk only secrets.json holds it, and encrypted: no file has it in clear.
    expect(filesWith(bed.server.dataDir, KEY)).toEqual([]);
    const config = JSON.parse(readFileSync(join(bed.server.dataDir, 'config.json'), 'utf8'));
    expect(config).toEqual({ providers: { anthropic: { baseURL: bed.fake.anthropicBaseURL } }, defaultModel: 'anthropic/claude-sonnet-4-5' });

    // A session created now (no model named) is on anthropic and sends the stored key.
    bed.fake.enqueue({ text: 'Hello from the new provider.' });
    const { session } = await client.ok('session:create', {});
    expect(session.model).toBe('anthropic/claude-sonnet-4-5');
    await client.ok('session:attach', { sessionId: session.id, role: 'driver' });
    await client.ok('session:send', { sessionId: session.id, text: 'hi' });
    await nextEvent(client, 'turn_done', 0, (e) => e.sessionId === session.id);
    const last = bed.fake.requests.at(-1)!;
    expect(last.format).toBe('anthropic');
    expect(last.headers['x-api-key'] ?? last.headers.authorization).toMatch(new RegExp(`^(Bearer )?${KEY}$`));
  });

  it('refuses an unknown provider with the list, and a call with nothing to change', async () => {
    bed.server = await startTestServer({ env: bed.env() });
    const { client, sessionId } = await driverSession(bed.server);
    client.approveAll(sessionId);
    bed.fake.enqueue(
      {
        toolCalls: [
          { name: 'configure_provider', args: { provider: 'acme', apiKey: KEY } },
          { name: 'configure_provider', args: { provider: 'openai' } },
        ],
      },
      { text: 'ok' },
    );
    await client.ok('session:send', { sessionId, text: 'set up acme' });
    await nextEvent(client, 'turn_done');
    const results = client.persisted().filter((e) => e.type === 'tool_result');
    expect(results.map((e) => e.type === 'tool_result' && e.output)).toEqual([
      expect.stringContaining('unknown provider "acme"; known providers: openai, anthropic'),
      'nothing to change: give apiKey, baseURL or model',
    ]);
    expect(JSON.stringify(client.events)).not.toContain(KEY);
  });
});
