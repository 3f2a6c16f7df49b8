import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '@tandem/testkit';
import { ANTHROPIC_DEFAULT_MAX_TOKENS, createAnthropicClient } from './anthropic-messages.js';
import { ProviderError } from './provider-error.js';
import type { ModelRequest, ModelStreamEvent } from './types.js';
import type { Message } from '../messages.js';

let server: FakeModelServer;
beforeEach(async () => {
  server = await startFakeModelServer();
});
afterEach(async () => {
  await server.close();
});

const client = () => createAnthropicClient({ id: 'anthropic/claude-test', model: 'claude-test', baseURL: server.anthropicBaseURL, apiKey: 'sk-ant-test' });
const request = (over: Partial<ModelRequest> = {}): ModelRequest => ({
  system: 'be brief',
  messages: [{ role: 'user', text: 'hi' }],
  tools: [{ name: 'read_file', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string' } } } }],
  ...over,
});

async function collect(stream: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const out: ModelStreamEvent[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

async function failure(stream: AsyncIterable<ModelStreamEvent>): Promise<{ error: ProviderError; events: ModelStreamEvent[] }> {
  const events: ModelStreamEvent[] = [];
  try {
    for await (const e of stream) events.push(e);
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError);
    return { error: error as ProviderError, events };
  }
  throw new Error('expected the stream to fail');
}

describe('Anthropic messages adapter (real SDK, fake server)', () => {
  it('streams text deltas, usage and a stop reason', async () => {
    server.enqueue({ chunks: ['Hel', 'lo'], usage: { input: 20, output: 6 } });
    const events = await collect(client().stream(request(), new AbortController().signal));
    expect(events).toEqual([
      { type: 'text_delta', delta: 'Hel' },
      { type: 'text_delta', delta: 'lo' },
      { type: 'usage', inputTokens: 20, outputTokens: 6 },
      { type: 'done', stopReason: 'stop' },
    ]);
  });

  it('sends only Messages API fields: system param, input_schema tools, a generous max_tokens', async () => {
    server.enqueue({ text: 'ok' });
    await collect(client().stream(request(), new AbortController().signal));
    const req = server.requests[0]!;
    expect(req.path).toBe('/v1/messages');
    expect(Object.keys(req.body).sort()).toEqual(['max_tokens', 'messages', 'model', 'stream', 'system', 'tools']);
    expect(req.body.max_tokens).toBe(ANTHROPIC_DEFAULT_MAX_TOKENS);
    expect(req.body.system).toBe('be brief');
    expect(req.body.tools[0]).toEqual({ name: 'read_file', description: 'Reads a file.', input_schema: { type: 'object', properties: { path: { type: 'string' } } } });
    expect([req.headers['x-api-key'], req.headers.authorization]).toContain(req.headers['x-api-key'] ? 'sk-ant-test' : 'Bearer sk-ant-test');
  });

  it('emits several tool calls in order, with invalid and empty arguments', async () => {
    server.enqueue({
      text: 'Let me look.',
      toolCalls: [
        { id: 't1', name: 'read_file', args: { path: 'a' } },
        { id: 't2', name: 'read_file', args: '{"path":' },
        { id: 't3', name: 'list', args: '' },
      ],
    });
    const events = await collect(client().stream(request(), new AbortController().signal));
    const calls = events.filter((e) => e.type === 'tool_call').map((e) => (e as Extract<ModelStreamEvent, { type: 'tool_call' }>).call);
    expect(calls).toEqual([
      { id: 't1', name: 'read_file', args: { path: 'a' }, rawArgs: '{"path":"a"}' },
      { id: 't2', name: 'read_file', args: undefined, rawArgs: '{"path":' },
      { id: 't3', name: 'list', args: {}, rawArgs: '' },
    ]);
    expect(events[0]).toEqual({ type: 'text_delta', delta: 'Let me look.' });
    expect(events.at(-1)).toEqual({ type: 'done', stopReason: 'tool_use' });
  });

  it('merges consecutive tool results (and a steering message) into one user turn with is_error', async () => {
    server.enqueue({ text: 'done' });
    const messages: Message[] = [
      { role: 'user', text: 'go' },
      { role: 'assistant', text: 'Reading both.', toolCalls: [{ id: 'c1', name: 'read_file', args: { path: 'x' }, rawArgs: '{"path":"x"}' }, { id: 'c2', name: 'read_file', args: undefined, rawArgs: '{bad' }] },
      { role: 'tool', callId: 'c1', name: 'read_file', output: 'contents', isError: false },
      { role: 'tool', callId: 'c2', name: 'read_file', output: 'bad arguments', isError: true },
      { role: 'user', text: 'also check y' },
    ];
    await collect(client().stream(request({ messages }), new AbortController().signal));
    const sent = server.requests[0]!.body.messages;
    expect(sent).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading both.' },
          { type: 'tool_use', id: 'c1', name: 'read_file', input: { path: 'x' } },
          { type: 'tool_use', id: 'c2', name: 'read_file', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'c1', content: 'contents' },
          { type: 'tool_result', tool_use_id: 'c2', content: 'bad arguments', is_error: true },
          { type: 'text', text: 'also check y' },
        ],
      },
    ]);
  });

  it('turns a 401 into a ProviderError of kind auth', async () => {
    server.enqueue({ status: 401 });
    const { error } = await failure(client().stream(request(), new AbortController().signal));
    expect(error.kind).toBe('auth');
    expect(error.details).toMatchObject({ provider: 'anthropic', model: 'claude-test', status: 401, afterContent: false });
  });

  it('classifies an overloaded 529 as a server error', async () => {
    server.enqueue({ status: 529 });
    const { error } = await failure(client().stream(request(), new AbortController().signal));
    expect(error.kind).toBe('server');
  });

  it('reports a stream cut before content with afterContent false', async () => {
    server.enqueue({ chunks: ['a', 'b'], cutAfterChunks: 1 });
    const { error, events } = await failure(client().stream(request(), new AbortController().signal));
    expect(events).toEqual([]);
    expect(error.kind).toBe('stream_cut');
    expect(error.details.afterContent).toBe(false);
  });

  it('reports a stream cut after text with afterContent true', async () => {
    // message_start, block start, delta 'partial', delta 'more' -> cut before stop events
    server.enqueue({ chunks: ['partial', 'more', 'never'], cutAfterChunks: 4 });
    const { error, events } = await failure(client().stream(request(), new AbortController().signal));
    expect(events).toEqual([
      { type: 'text_delta', delta: 'partial' },
      { type: 'text_delta', delta: 'more' },
    ]);
    expect(error.kind).toBe('stream_cut');
    expect(error.details.afterContent).toBe(true);
  });

  it('throws aborted when the caller aborts', async () => {
    server.enqueue({ hang: true });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const { error } = await failure(client().stream(request(), ac.signal));
    expect(error.kind).toBe('aborted');
  });
});
