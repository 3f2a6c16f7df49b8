import { describe, expect, it } from 'vitest';
import { commonPrefix, openaiPrompt } from '@tandem/testkit';
import type { Message } from '../messages.js';
import { createOpenAIChatClient } from './openai-chat.js';
import { resolveModelClient } from './resolve.js';
import { collectStream } from './testing/adapter-stream.test-helper.js';
import { configWith, drain, fakeEnv, testModel } from './testing/chain-fixture.test-helper.js';
import { fakeModelServerPerTest } from './testing/fake-server.test-helper.js';
import type { ModelRequest, ModelStreamEvent, ToolSpec } from './types.js';

const fake = fakeModelServerPerTest();

const TOOLS: ToolSpec[] = [
  { name: 'read_file', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
  { name: 'run_command', description: 'Runs a command.', parameters: { type: 'object', properties: { command: { type: 'string' } } } },
];
type Usage = Extract<ModelStreamEvent, { type: 'usage' }>;

const request = (messages: Message[], over: Partial<ModelRequest> = {}): ModelRequest => ({
  system: 'You are careful. '.repeat(40),
  messages,
  tools: TOOLS,
  cacheKey: 'session-1',
  ...over,
});

describe('OpenAI-format prompt cache', () => {
  it('sends prompt_cache_key = the cache key where the provider takes it, and reads cached_tokens back', async () => {
    const client = createOpenAIChatClient({ id: 'openai/gpt-test', model: 'gpt-test', baseURL: fake.server.openaiBaseURL, apiKey: 'k', promptCacheKey: true });
    const conversation: Message[] = [{ role: 'user', text: 'hi' }];
    fake.server.enqueue({ text: 'a' }, { text: 'b' });
    const first = await collectStream(client.stream(request(conversation), new AbortController().signal));
    conversation.push({ role: 'assistant', text: 'a', toolCalls: [] }, { role: 'user', text: 'more' });
    const second = await collectStream(client.stream(request(conversation), new AbortController().signal));
    expect(fake.server.requests.map((r) => r.body.prompt_cache_key)).toEqual(['session-1', 'session-1']);
    const usage = (events: ModelStreamEvent[]) => events.find((e): e is Usage => e.type === 'usage')!;
    expect(usage(first).cacheReadTokens).toBe(0);
    expect(usage(second).cacheReadTokens).toBe(fake.server.requests[1]!.cache!.read);
    expect(usage(second).cacheReadTokens).toBeGreaterThan(100);
    expect(usage(second).cacheWriteTokens).toBe(0);
  });

  it('sends no prompt_cache_key to a provider that may reject it, nor for a request outside a session', async () => {
    const off = createOpenAIChatClient({ id: 'groq/m', model: 'm', baseURL: fake.server.openaiBaseURL, apiKey: 'k' });
    const on = createOpenAIChatClient({ id: 'openai/m', model: 'm', baseURL: fake.server.openaiBaseURL, apiKey: 'k', promptCacheKey: true });
    fake.server.enqueue({ text: 'a' }, { text: 'b' });
    await collectStream(off.stream(request([{ role: 'user', text: 'hi' }]), new AbortController().signal));
    await collectStream(on.stream(request([{ role: 'user', text: 'hi' }], { cacheKey: undefined }), new AbortController().signal));
    expect(fake.server.requests.map((r) => 'prompt_cache_key' in r.body)).toEqual([false, false]);
  });

  it('config.json providers.NAME.promptCacheKey turns the key on or off per provider', async () => {
    const env = { ...fakeEnv(fake.server), GROQ_API_KEY: 'gsk-test' };
    const groq = testModel('groq/m', { baseURL: fake.server.openaiBaseURL });
    fake.server.enqueue({ text: 'a' }, { text: 'b' }, { text: 'c' });
    const send = (spec: string, config: object) =>
      drain(resolveModelClient(spec, { env, config: configWith([groq, testModel('openai/m')], config) }), request([{ role: 'user', text: 'hi' }]));
    await send('groq/m', {});
    await send('groq/m', { providers: { groq: { baseURL: fake.server.openaiBaseURL, promptCacheKey: true } } });
    await send('openai/m', { providers: { openai: { promptCacheKey: false } } });
    expect(fake.server.requests.map((r) => r.body.prompt_cache_key ?? null)).toEqual([null, 'session-1', null]);
  });

  it('every request of two turns extends the one before, byte for byte (tools, system prompt, earlier messages)', async () => {
    const client = createOpenAIChatClient({ id: 'openai/gpt-test', model: 'gpt-test', baseURL: fake.server.openaiBaseURL, apiKey: 'k', promptCacheKey: true });
    const conversation: Message[] = [{ role: 'user', text: 'read a, b and c' }];
    const sendOne = async () => {
      fake.server.enqueue({ text: 'x' });
      await collectStream(client.stream(request(conversation), new AbortController().signal));
    };
    await sendOne();
    for (const turn of [0, 1]) {
      for (const id of ['a', 'b', 'c']) {
        const callId = `${turn}${id}`;
        conversation.push(
          { role: 'assistant', text: '', toolCalls: [{ id: callId, name: 'read_file', args: { path: id }, rawArgs: `{"path":"${id}"}` }] },
          { role: 'tool', callId, name: 'read_file', output: `contents of ${id}`, isError: false },
        );
        await sendOne();
      }
      conversation.push({ role: 'assistant', text: 'done', toolCalls: [] }, { role: 'user', text: 'again' });
      await sendOne();
    }
    const prompts = fake.server.requests.map((r) => openaiPrompt(r.body));
    for (let i = 1; i < prompts.length; i++) {
      expect(commonPrefix(prompts[i - 1]!, prompts[i]!)).toBe(prompts[i - 1]!.length);
    }
  });

  it('a fallback from Anthropic to an OpenAI-format model sends no breakpoints', async () => {
    fake.server.script('claude-test', { status: 401 });
    fake.server.script('gpt-test', { text: 'from the fallback' });
    const config = configWith([testModel('anthropic/claude-test', { fallback: 'openai/gpt-test' }), testModel('openai/gpt-test')]);
    const client = resolveModelClient('anthropic/claude-test', { env: fakeEnv(fake.server), config });
    const out = await drain(client, request([{ role: 'user', text: 'hi' }]));
    expect(out.text).toBe('from the fallback');
    const [anthropic, openai] = fake.server.requests;
    expect(anthropic!.format).toBe('anthropic');
    expect(anthropic!.rawBody).toContain('"cache_control"');
    expect(openai!.format).toBe('openai');
    expect(openai!.rawBody).not.toContain('cache_control');
    expect(openai!.body.prompt_cache_key).toBe('session-1');
  });
});
