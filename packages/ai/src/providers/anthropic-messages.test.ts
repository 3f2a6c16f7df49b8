import { describe, expect, it } from 'vitest';
import { ANTHROPIC_DEFAULT_MAX_TOKENS } from './anthropic-messages.js';
import { toAnthropicMessages } from './anthropic-request.js';
import type { Message } from '../messages.js';
import { assistantCalling, toolCallOf } from './testing/conversation-messages.test-helper.js';
import { collectStream, sampleRequest, streamFailure, toolCallsOf } from './testing/adapter-stream.test-helper.js';
import { expectBodiesGivenBack } from './testing/lent-bodies.test-helper.js';
import { anthropicClient, fakeModelServerPerTest } from './testing/fake-server.test-helper.js';

const fake = fakeModelServerPerTest();

const client = () => anthropicClient(fake.server, 'claude-test', 'sk-ant-test');

describe('Anthropic messages adapter (real SDK, fake server)', () => {
  it('streams text deltas, usage and a stop reason', async () => {
    fake.server.enqueue({ chunks: ['Hel', 'lo'], usage: { input: 20, output: 6 } });
    const events = await collectStream(client().stream(sampleRequest(), new AbortController().signal));
    expect(events).toEqual([
      { type: 'text_delta', delta: 'Hel' },
      { type: 'text_delta', delta: 'lo' },
      { type: 'usage', inputTokens: 20, outputTokens: 6, cacheReadTokens: 0, cacheWriteTokens: 0 },
      { type: 'done', stopReason: 'stop' },
    ]);
  });

  it('sends only Messages API fields: system param, input_schema tools, a generous max_tokens', async () => {
    fake.server.enqueue({ text: 'ok' });
    await collectStream(client().stream(sampleRequest(), new AbortController().signal));
    const req = fake.server.requests[0]!;
    expect(req.path).toBe('/v1/messages');
    expect(Object.keys(req.body).sort()).toEqual(['max_tokens', 'messages', 'model', 'stream', 'system', 'tools']);
    expect(req.body.max_tokens).toBe(ANTHROPIC_DEFAULT_MAX_TOKENS);
    expect(req.body.system).toBe('be brief');
    expect(req.body.tools[0]).toEqual({
      name: 'read_file',
      description: 'Reads a file.',
      input_schema: { type: 'object', properties: { path: { type: 'string' } } },
    });
    expect([req.headers['x-api-key'], req.headers.authorization]).toContain(req.headers['x-api-key'] ? 'sk-ant-test' : 'Bearer sk-ant-test');
  });

  it('emits several tool calls in order, with invalid and empty arguments', async () => {
    fake.server.enqueue({
      text: 'Let me look.',
      toolCalls: [
        { id: 't1', name: 'read_file', args: { path: 'a' } },
        { id: 't2', name: 'read_file', args: '{"path":' },
        { id: 't3', name: 'list', args: '' },
      ],
    });
    const events = await collectStream(client().stream(sampleRequest(), new AbortController().signal));
    const calls = toolCallsOf(events);
    expect(calls).toEqual([
      { id: 't1', name: 'read_file', args: { path: 'a' }, rawArgs: '{"path":"a"}' },
      { id: 't2', name: 'read_file', args: undefined, rawArgs: '{"path":' },
      { id: 't3', name: 'list', args: {}, rawArgs: '' },
    ]);
    expect(events[0]).toEqual({ type: 'text_delta', delta: 'Let me look.' });
    expect(events.at(-1)).toEqual({ type: 'done', stopReason: 'tool_use' });
  });

  it('merges consecutive tool results (and a steering message) into one user turn with is_error', async () => {
    fake.server.enqueue({ text: 'done' });
    const messages: Message[] = [
      { role: 'user', text: 'go' },
      // The second call's arguments were not JSON.
      assistantCalling('Reading both.', toolCallOf('c1', 'read_file', { path: 'x' }), { id: 'c2', name: 'read_file', args: undefined, rawArgs: '{bad' }),
      { role: 'tool', callId: 'c1', name: 'read_file', output: 'contents', isError: false },
      { role: 'tool', callId: 'c2', name: 'read_file', output: 'bad arguments', isError: true },
      { role: 'user', text: 'also check y' },
    ];
    await collectStream(client().stream(sampleRequest({ messages }), new AbortController().signal));
    const sent = fake.server.requests[0]!.body.messages;
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

  it('a growing conversation: every request carries the whole conversation as JSON, its unchanged turns carried over as bytes', async () => {
    const c = client();
    const messages: Message[] = [{ role: 'user', text: 'go' }];
    const expected: unknown[] = [];
    const step = async (...added: Message[]) => {
      messages.push(...added);
      fake.server.enqueue({ text: 'ok' });
      await collectStream(c.stream(sampleRequest({ messages }), new AbortController().signal));
      expected.push(JSON.parse(JSON.stringify(toAnthropicMessages([...messages]))));
    };
    const callOf = (id: string) => ({ id, name: 'read_file', args: { path: id }, rawArgs: `{"path":"${id}"}` });
    await step();
    await step(
      { role: 'assistant', text: 'Reading.', toolCalls: [callOf('c1')] },
      { role: 'tool', callId: 'c1', name: 'read_file', output: 'one', isError: false },
    );
    // The last user turn gains a steering message: that turn is sent anew, the ones before as they were.
    await step({ role: 'user', text: 'and then?' });
    await step({ role: 'assistant', text: 'Then this.', toolCalls: [] }, { role: 'user', text: 'thanks' });

    const sent = fake.server.requests.map((r) => r.body);
    expect(sent.map((b) => b.messages)).toEqual(expected);
    expect(sent[2].messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'c1', content: 'one' },
        { type: 'text', text: 'and then?' },
      ],
    });
    for (const b of sent) expect(Object.keys(b).sort()).toEqual(['max_tokens', 'messages', 'model', 'stream', 'system', 'tools']);
    expect(new Set(sent.map((b) => JSON.stringify(b.tools))).size).toBe(1);
    for (const r of fake.server.requests) expect(r.headers['content-type']).toBe('application/json');
  });

  it('turns a 401 into a ProviderError of kind auth', async () => {
    fake.server.enqueue({ status: 401 });
    const { error } = await streamFailure(client().stream(sampleRequest(), new AbortController().signal));
    expect(error.kind).toBe('auth');
    expect(error.details).toMatchObject({ provider: 'anthropic', model: 'claude-test', status: 401, afterContent: false });
  });

  it('classifies an overloaded 529 as a server error', async () => {
    fake.server.enqueue({ status: 529 });
    const { error } = await streamFailure(client().stream(sampleRequest(), new AbortController().signal));
    expect(error.kind).toBe('server');
  });

  it('reports a stream cut before content with afterContent false', async () => {
    fake.server.enqueue({ chunks: ['a', 'b'], cutAfterChunks: 1 });
    const { error, events } = await streamFailure(client().stream(sampleRequest(), new AbortController().signal));
    expect(events).toEqual([]);
    expect(error.kind).toBe('stream_cut');
    expect(error.details.afterContent).toBe(false);
  });

  it('reports a stream cut after text with afterContent true', async () => {
    // message_start, block start, delta 'partial', delta 'more' -> cut before stop events
    fake.server.enqueue({ chunks: ['partial', 'more', 'never'], cutAfterChunks: 4 });
    const { error, events } = await streamFailure(client().stream(sampleRequest(), new AbortController().signal));
    expect(events).toEqual([
      { type: 'text_delta', delta: 'partial' },
      { type: 'text_delta', delta: 'more' },
    ]);
    expect(error.kind).toBe('stream_cut');
    expect(error.details.afterContent).toBe(true);
  });

  it('throws aborted when the caller aborts', async () => {
    fake.server.enqueue({ hang: true });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const { error } = await streamFailure(client().stream(sampleRequest(), ac.signal));
    expect(error.kind).toBe('aborted');
  });

  it('gives a large body back once its request is over: answered, refused, or aborted', async () => {
    await expectBodiesGivenBack(fake.server, client);
  });
});
