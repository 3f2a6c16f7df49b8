import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addUserServer } from '../src/mcp/user-mcp-file.js';
import { IMAGE_FIXTURE, filesContaining, nextEvent } from './mcp-harness.js';
import { fakeModelBed, startTestServer, tempDir, type TestClient, type TestServer } from './server-harness.js';

/**
 * An MCP tool's image through real turns: a real stdio MCP server (the official SDK) answers
 * with text + a PNG; the real openai and anthropic SDKs send it to the fake model server in
 * each wire format's own shape; the log and every client get `{ mimeType, bytes, ref }` only,
 * the bytes are kept once in the session's directory and sent again after a restart.
 */
const bed = fakeModelBed();
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const PNG_BYTES = Buffer.from(PNG, 'base64').length;

type Body = { messages?: Array<{ role: string; content: unknown }> };

async function imageSession(model?: string): Promise<{ dataDir: string; client: TestClient; sessionId: string; server: TestServer }> {
  const dataDir = (await tempDir('tandem-data-')).path;
  addUserServer({ dataDir, name: 'img', command: process.execPath, args: [IMAGE_FIXTURE] });
  const env = { ...bed.env(), ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: bed.fake.anthropicBaseURL };
  bed.server = await startTestServer({ env, dataDir });
  const client = await bed.server.connect('alice');
  const { session } = await client.ok('session:create', model ? { model } : {});
  await client.ok('session:attach', { sessionId: session.id, role: 'driver' });
  client.approveAll(session.id);
  return { dataDir, client, sessionId: session.id, server: bed.server };
}

describe('MCP image results reach the model as images', () => {
  it('OpenAI Chat: the tool message names the image, a user message right after the tool messages carries it as an image_url data URL; the log keeps only a ref', async () => {
    const { dataDir, client, sessionId } = await imageSession();
    bed.fake.enqueue({ toolCalls: [{ name: 'mcp__img__screenshot', args: {} }] }, { text: 'I see one pixel' });
    await client.ok('session:send', { sessionId, text: 'look at the screen' });
    const result = await nextEvent(client, 'tool_result');
    const done = await nextEvent(client, 'turn_done');

    expect(result).toMatchObject({ tool: 'mcp__img__screenshot', isError: false, output: 'here is the screen' });
    expect(result.images).toEqual([{ mimeType: 'image/png', bytes: PNG_BYTES, ref: expect.stringMatching(/^[a-f0-9]{64}\.png$/) }]);
    const ref = result.images?.[0]?.ref as string;
    expect(readFileSync(join(dataDir, 'sessions', sessionId, 'images', ref)).toString('base64')).toBe(PNG);
    // The base64 is in no file: not the event log, not the audit log (the image is kept as bytes).
    expect(filesContaining(dataDir, PNG)).toEqual([]);

    const messages = (bed.fake.requests[1]!.body as Body).messages ?? [];
    const toolAt = messages.findIndex((m) => m.role === 'tool');
    expect(messages[toolAt]).toMatchObject({ role: 'tool', content: `here is the screen\n[image image/png ${PNG_BYTES} B]` });
    expect(messages[toolAt + 1]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: expect.stringContaining('mcp__img__screenshot') },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
      ],
    });

    // Replay: after a restart the conversation comes from the log; the image is read back from its file.
    await bed.server!.stop();
    const env = { ...bed.env(), ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: bed.fake.anthropicBaseURL };
    bed.server = await startTestServer({ env, dataDir });
    const again = await bed.server.connect('alice');
    await again.ok('session:attach', { sessionId, role: 'driver' });
    bed.fake.enqueue({ text: 'still one pixel' });
    await again.ok('session:send', { sessionId, text: 'and now?' });
    await nextEvent(again, 'turn_done', done.seq);
    const replayed = JSON.stringify((bed.fake.requests.at(-1)!.body as Body).messages);
    expect(replayed).toContain(`data:image/png;base64,${PNG}`);
  });

  it('Anthropic Messages: the tool_result block holds a text block and an image block with a base64 source', async () => {
    const { client, sessionId } = await imageSession('anthropic/claude-sonnet-4-5');
    bed.fake.enqueue({ toolCalls: [{ name: 'mcp__img__diagram', args: {} }] }, { text: 'a diagram' });
    await client.ok('session:send', { sessionId, text: 'draw it' });
    const result = await nextEvent(client, 'tool_result');
    await nextEvent(client, 'turn_done');
    expect(result.images).toEqual([{ mimeType: 'image/png', bytes: PNG_BYTES, ref: expect.any(String) }]);

    const second = bed.fake.requests[1]!;
    expect(second.format).toBe('anthropic');
    const turns = (second.body as Body).messages ?? [];
    const blocks = turns.flatMap((t) => (Array.isArray(t.content) ? (t.content as Array<{ type: string }>) : []));
    const toolResult = blocks.find((b) => b.type === 'tool_result');
    expect(toolResult).toMatchObject({
      type: 'tool_result',
      content: [
        { type: 'text', text: `[image image/png ${PNG_BYTES} B]` },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
      ],
    });
  });
});
