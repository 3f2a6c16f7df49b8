import { describe, expect, it } from 'vitest';
import type { Message } from '../messages.js';
import { assistantCalling, toolCallOf } from './testing/conversation-messages.test-helper.js';
import { collectStream, sampleRequest, streamFailure, toolCallsOf } from './testing/adapter-stream.test-helper.js';
import { expectBodiesGivenBack } from './testing/lent-bodies.test-helper.js';
import { openaiClient, fakeModelServerPerTest } from './testing/fake-server.test-helper.js';

const fake = fakeModelServerPerTest();

const client = () => openaiClient(fake.server, 'gpt-test', 'sk-test');

describe('OpenAI chat adapter (real SDK, fake server)', () => {
  it('streams text deltas, usage and a stop reason', async () => {
    fake.server.enqueue({ chunks: ['Hel', 'lo ', 'there'], usage: { input: 12, output: 4 } });
    const events = await collectStream(client().stream(sampleRequest(), new AbortController().signal));
    expect(events.filter((e) => e.type === 'text_delta').map((e) => (e as { delta: string }).delta)).toEqual(['Hel', 'lo ', 'there']);
    expect(events.at(-2)).toEqual({ type: 'usage', inputTokens: 12, outputTokens: 4, cacheReadTokens: 0, cacheWriteTokens: 0 });
    expect(events.at(-1)).toEqual({ type: 'done', stopReason: 'stop' });
  });

  it('sends only Chat Completions fields: system message, function tools, temperature 0.2, no max tokens', async () => {
    fake.server.enqueue({ text: 'ok' });
    await collectStream(client().stream(sampleRequest(), new AbortController().signal));
    const body = fake.server.requests[0]!.body;
    expect(Object.keys(body).sort()).toEqual(['messages', 'model', 'stream', 'stream_options', 'temperature', 'tools']);
    expect(body.temperature).toBe(0.2);
    expect(body.messages[0]).toEqual({ role: 'system', content: 'be brief' });
    expect(body.tools[0]).toEqual({
      type: 'function',
      function: { name: 'read_file', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
    });
    expect(fake.server.requests[0]!.headers.authorization).toBe('Bearer sk-test');
  });

  it('assembles several tool calls from split deltas, in order, with invalid and empty arguments', async () => {
    fake.server.enqueue({
      text: 'Reading.',
      toolCalls: [
        { id: 'a', name: 'read_file', args: { path: 'one.txt' } },
        { id: 'b', name: 'read_file', args: '{"path": "two' },
        { id: 'c', name: 'list', args: '' },
      ],
    });
    const events = await collectStream(client().stream(sampleRequest(), new AbortController().signal));
    const calls = toolCallsOf(events);
    expect(calls).toEqual([
      { id: 'a', name: 'read_file', args: { path: 'one.txt' }, rawArgs: '{"path":"one.txt"}' },
      { id: 'b', name: 'read_file', args: undefined, rawArgs: '{"path": "two' },
      { id: 'c', name: 'list', args: {}, rawArgs: '' },
    ]);
    expect(events.at(-1)).toEqual({ type: 'done', stopReason: 'tool_use' });
  });

  it('makes up unique ids when a compatible server sends none', async () => {
    fake.server.enqueue({ toolCalls: [{ id: '', name: 'read_file', args: {} }] }, { toolCalls: [{ id: '', name: 'read_file', args: {} }] });
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      for (const e of await collectStream(client().stream(sampleRequest(), new AbortController().signal))) if (e.type === 'tool_call') ids.push(e.call.id);
    }
    expect(ids).toHaveLength(2);
    expect(ids[0]).toMatch(/^call_0_[0-9a-f]{16}$/);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('maps assistant tool calls and tool results back to the wire format', async () => {
    fake.server.enqueue({ text: 'done' });
    const messages: Message[] = [
      { role: 'user', text: 'go' },
      // The second call's arguments were not JSON.
      assistantCalling('', toolCallOf('c1', 'read_file', { path: 'x' }), { id: 'c2', name: 'read_file', args: undefined, rawArgs: '{bad' }),
      { role: 'tool', callId: 'c1', name: 'read_file', output: 'contents', isError: false },
      { role: 'tool', callId: 'c2', name: 'read_file', output: 'arguments are not valid JSON', isError: true },
    ];
    await collectStream(client().stream(sampleRequest({ messages }), new AbortController().signal));
    const sent = fake.server.requests[0]!.body.messages;
    expect(sent[2]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"x"}' } },
        { id: 'c2', type: 'function', function: { name: 'read_file', arguments: '{}' } },
      ],
    });
    expect(sent[3]).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'contents' });
    expect(sent[4]).toEqual({ role: 'tool', tool_call_id: 'c2', content: 'Error: arguments are not valid JSON' });
  });

  it('turns a 401 into a ProviderError of kind auth with a readable message', async () => {
    fake.server.enqueue({ status: 401 });
    const { error } = await streamFailure(client().stream(sampleRequest(), new AbortController().signal));
    expect(error.kind).toBe('auth');
    expect(error.details.status).toBe(401);
    expect(error.message).toContain('check the API key');
    expect(error.details.afterContent).toBe(false);
  });

  it('carries Retry-After on a 429', async () => {
    fake.server.enqueue({ status: 429, headers: { 'retry-after': '3' } });
    const { error } = await streamFailure(client().stream(sampleRequest(), new AbortController().signal));
    expect(error.kind).toBe('rate_limit');
    expect(error.details.retryAfterMs).toBe(3000);
  });

  it('reports a stream cut before any content with afterContent false', async () => {
    fake.server.enqueue({ chunks: ['a', 'b'], cutAfterChunks: 1 });
    const { error, events } = await streamFailure(client().stream(sampleRequest(), new AbortController().signal));
    expect(events).toEqual([]);
    expect(error.kind).toBe('stream_cut');
    expect(error.details.afterContent).toBe(false);
  });

  it('reports a stream cut after text with afterContent true', async () => {
    fake.server.enqueue({ chunks: ['partial ', 'reply', ' never'], cutAfterChunks: 3 });
    const { error, events } = await streamFailure(client().stream(sampleRequest(), new AbortController().signal));
    expect(events.map((e) => e.type)).toEqual(['text_delta', 'text_delta']);
    expect(error.kind).toBe('stream_cut');
    expect(error.details.afterContent).toBe(true);
  });

  it('throws aborted when the caller aborts a hanging request', async () => {
    fake.server.enqueue({ hang: true });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const { error } = await streamFailure(client().stream(sampleRequest(), ac.signal));
    expect(error.kind).toBe('aborted');
  });

  it('sends maxOutputTokens when asked', async () => {
    fake.server.enqueue({ text: 'ok' });
    await collectStream(client().stream(sampleRequest({ maxOutputTokens: 500, tools: [] }), new AbortController().signal));
    expect(fake.server.requests[0]!.body.max_completion_tokens).toBe(500);
    expect(fake.server.requests[0]!.body.tools).toBeUndefined();
  });

  it('gives a large body back once its request is over: answered, refused, or aborted', async () => {
    await expectBodiesGivenBack(fake.server, client);
  });
});
