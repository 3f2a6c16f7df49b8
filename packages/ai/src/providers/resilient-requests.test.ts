import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { FakeClock, settle } from '@tandem/testkit';
import type { Message } from '../messages.js';
import { Governor } from './governor.js';
import { ProviderError } from './provider-error.js';
import { resolveModelClient } from './resolve.js';
import { ANTHROPIC_KEY, configWith, drain, fakeEnv, OPENAI_KEY, OPENAI_KEY_2, recorder, testModel } from './testing/chain-fixture.test-helper.js';
import { fakeModelServerPerTest } from './testing/fake-server.test-helper.js';
import type { ModelRequest, ToolSpec } from './types.js';
import { assistantCalling, toolCallOf } from './testing/conversation-messages.test-helper.js';

const fake = fakeModelServerPerTest();

// Documented request fields (OpenAI Chat Completions create; Anthropic Messages create).
const OPENAI_TOP_LEVEL = new Set([
  'messages',
  'model',
  'audio',
  'frequency_penalty',
  'function_call',
  'functions',
  'logit_bias',
  'logprobs',
  'max_completion_tokens',
  'max_tokens',
  'metadata',
  'modalities',
  'n',
  'parallel_tool_calls',
  'prediction',
  'presence_penalty',
  'prompt_cache_key',
  'reasoning_effort',
  'response_format',
  'safety_identifier',
  'seed',
  'service_tier',
  'stop',
  'store',
  'stream',
  'stream_options',
  'temperature',
  'tool_choice',
  'tools',
  'top_logprobs',
  'top_p',
  'user',
  'verbosity',
  'web_search_options',
]);
const OPENAI_TOOL = new Set(['type', 'function']);
const OPENAI_FUNCTION = new Set(['name', 'description', 'parameters', 'strict']);
const ANTHROPIC_TOP_LEVEL = new Set([
  'model',
  'max_tokens',
  'messages',
  'container',
  'context_management',
  'mcp_servers',
  'metadata',
  'service_tier',
  'stop_sequences',
  'stream',
  'system',
  'temperature',
  'thinking',
  'tool_choice',
  'tools',
  'top_k',
  'top_p',
]);
const ANTHROPIC_TOOL = new Set(['name', 'description', 'input_schema', 'cache_control', 'type']);

/** Tools as the engine holds them: with internal fields a provider must never see. */
const TOOLS = [
  {
    name: 'read_file',
    description: 'Read a file',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    danger: 'safe',
    readOnly: true,
    internal: { audit: true },
  },
  {
    name: 'run_command',
    description: 'Run a shell command',
    parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
    danger: 'dangerous',
    execute: () => 'nope',
  },
] as unknown as ToolSpec[];

/** A conversation with two parallel tool calls and their results, then a follow-up. */
const CONVERSATION: Message[] = [
  { role: 'user', text: 'look at a.txt and list files' },
  assistantCalling('Checking.', toolCallOf('call_1', 'read_file', { path: 'a.txt' }), toolCallOf('call_2', 'run_command', { command: 'ls' })),
  { role: 'tool', callId: 'call_1', name: 'read_file', output: 'hello', isError: false },
  { role: 'tool', callId: 'call_2', name: 'run_command', output: 'permission denied', isError: true },
  { role: 'assistant', text: 'a.txt says hello.', toolCalls: [] },
  { role: 'user', text: 'thanks, now summarise' },
];

const REQUEST: ModelRequest = { system: 'You are Tandem.', messages: CONVERSATION, tools: TOOLS, temperature: 0.3 };

function keysOf(o: object): string[] {
  return Object.keys(o);
}

describe('resilient model client: what is sent', () => {
  it('sends only documented fields to both APIs, and no internal tool fields', async () => {
    const models = [testModel('openai/m-a', { fallback: 'anthropic/m-b' }), testModel('anthropic/m-b')];
    fake.server.script('m-a', { status: 503 }, { status: 503 }, { status: 503 }, { status: 503 });
    fake.server.script('m-b', { text: 'ok' });
    const clock = new FakeClock({ auto: true });
    const client = resolveModelClient('openai/m-a', { env: fakeEnv(fake.server), config: configWith(models), clock });
    const out = await drain(client, REQUEST);
    expect(out.error).toBeUndefined();

    const openaiBody = fake.server.requests[0]!.body;
    for (const k of keysOf(openaiBody)) expect(OPENAI_TOP_LEVEL.has(k), `openai field ${k}`).toBe(true);
    expect(openaiBody.tools).toHaveLength(2);
    for (const tool of openaiBody.tools) {
      for (const k of keysOf(tool)) expect(OPENAI_TOOL.has(k), `openai tool field ${k}`).toBe(true);
      for (const k of keysOf(tool.function)) expect(OPENAI_FUNCTION.has(k), `openai function field ${k}`).toBe(true);
    }

    const anthropicReq = fake.server.requests.at(-1)!;
    expect(anthropicReq.path).toBe('/v1/messages');
    for (const k of keysOf(anthropicReq.body)) expect(ANTHROPIC_TOP_LEVEL.has(k), `anthropic field ${k}`).toBe(true);
    for (const tool of anthropicReq.body.tools) {
      for (const k of keysOf(tool)) expect(ANTHROPIC_TOOL.has(k), `anthropic tool field ${k}`).toBe(true);
    }
    const sent = JSON.stringify([openaiBody, anthropicReq.body]);
    for (const leak of ['danger', 'readOnly', 'internal', 'execute', 'audit']) expect(sent).not.toContain(leak);
  });

  it('keeps every tool call paired with its result on both protocols after a cross-protocol fallback', async () => {
    const models = [testModel('openai/m-a', { fallback: 'anthropic/m-b' }), testModel('anthropic/m-b')];
    fake.server.script('m-a', { status: 401 });
    fake.server.script('m-b', { text: 'summary' });
    const client = resolveModelClient('openai/m-a', { env: fakeEnv(fake.server), config: configWith(models), clock: new FakeClock({ auto: true }) });
    expect((await drain(client, REQUEST)).text).toBe('summary');

    const chat: any[] = fake.server.requests[0]!.body.messages;
    const callIds = chat.flatMap((m) => (m.tool_calls ?? []).map((c: any) => c.id));
    const resultIds = chat.filter((m) => m.role === 'tool').map((m) => m.tool_call_id);
    expect(callIds).toEqual(['call_1', 'call_2']);
    expect(resultIds).toEqual(callIds);
    const callAt = chat.findIndex((m) => m.tool_calls);
    expect(chat.slice(callAt + 1, callAt + 3).map((m) => m.role)).toEqual(['tool', 'tool']);

    const msgs: any[] = fake.server.requests[1]!.body.messages;
    const roles = msgs.map((m) => m.role);
    for (let i = 1; i < roles.length; i++) expect(roles[i], `roles alternate at ${i}`).not.toBe(roles[i - 1]);
    msgs.forEach((m, i) => {
      const uses = Array.isArray(m.content) ? m.content.filter((b: any) => b.type === 'tool_use').map((b: any) => b.id) : [];
      if (uses.length === 0) return;
      const next = msgs[i + 1];
      expect(next?.role).toBe('user');
      const results = next.content.filter((b: any) => b.type === 'tool_result');
      expect(results.map((b: any) => b.tool_use_id)).toEqual(uses);
      expect(results.find((b: any) => b.tool_use_id === 'call_2').is_error).toBe(true);
    });
    expect(msgs.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b: any) => b.type === 'tool_use')).toHaveLength(2);
  });

  it("leaves out temperature for models that refuse it, and uses each gateway's output-limit field", async () => {
    const models = [testModel('openai/m-r', { temperature: false }), testModel('groq/m-g')];
    fake.server.script('m-r', { text: 'r' });
    fake.server.script('m-g', { text: 'g' });
    const env = { ...fakeEnv(fake.server), GROQ_API_KEY: 'gsk-test' };
    const config = configWith(models, { providers: { groq: { baseURL: fake.server.openaiBaseURL } } });
    const req = { ...REQUEST, maxOutputTokens: 1000 };
    await drain(resolveModelClient('openai/m-r', { env, config }), req);
    await drain(resolveModelClient('groq/m-g', { env, config }), req);
    const [r, g] = fake.server.requests;
    expect(r!.body.temperature).toBeUndefined();
    expect(r!.body.max_completion_tokens).toBe(1000);
    expect(g!.body.temperature).toBe(0.3);
    expect(g!.body.max_tokens).toBe(1000);
    expect(g!.body.max_completion_tokens).toBeUndefined();
    expect(g!.headers['authorization']).toBe('Bearer gsk-test');
  });

  it('accepts a model the catalog does not know and sends it as named', async () => {
    fake.server.script('gpt-brand-new', { text: 'hi from the future' });
    const client = resolveModelClient('openai/gpt-brand-new', { env: fakeEnv(fake.server) });
    expect((await drain(client)).text).toBe('hi from the future');
    expect(fake.server.requests[0]!.model).toBe('gpt-brand-new');
  });

  it('refuses a request whose tool definitions alone overflow the window, before sending it', async () => {
    const models = [testModel('openai/m-small', { contextWindow: 1000, fallback: 'anthropic/m-b' }), testModel('anthropic/m-b')];
    const big = Array.from({ length: 3 }, (_, i) => ({ name: `tool_${i}`, description: 'x'.repeat(2000), parameters: { type: 'object' } }));
    const client = resolveModelClient('openai/m-small', { env: fakeEnv(fake.server), config: configWith(models) });
    const out = await drain(client, { system: '', messages: [{ role: 'user', text: 'hi' }], tools: big });
    const err = out.error as ProviderError;
    expect(err.kind).toBe('context_overflow');
    expect(err.message).toMatch(/^openai model m-small: the request does not fit the context window: tool definitions alone take 1,5\d\d of 1,000 tokens/);
    expect(fake.server.requests).toHaveLength(0);
  });

  it('uses the supplied token estimator', async () => {
    const models = [testModel('openai/m-small', { contextWindow: 1000 })];
    fake.server.script('m-small', { text: 'fits' });
    const ok = resolveModelClient('openai/m-small', { env: fakeEnv(fake.server), config: configWith(models) });
    const strict = resolveModelClient('openai/m-small', { env: fakeEnv(fake.server), config: configWith(models), estimateTokens: (t) => t.length });
    const req: ModelRequest = { system: '', messages: [{ role: 'user', text: 'y'.repeat(2000) }], tools: [] };
    expect((await drain(ok, req)).text).toBe('fits');
    expect(((await drain(strict, req)).error as ProviderError).kind).toBe('context_overflow');
  });

  it('never puts a key into an error message or an event', async () => {
    const models = [testModel('openai/m-a', { fallback: 'anthropic/m-b' }), testModel('anthropic/m-b')];
    fake.server.script(
      'm-a',
      { status: 429, headers: { 'retry-after': '1' } },
      { status: 401, errorBody: { error: { message: `Incorrect API key provided: ${OPENAI_KEY_2}`, type: 'invalid_request_error', code: 'invalid_api_key' } } },
    );
    fake.server.script('m-b', { status: 500 }, { status: 500 }, { status: 500 }, { status: 500 });
    const rec = recorder();
    const client = resolveModelClient('openai/m-a', {
      env: fakeEnv(fake.server, `${OPENAI_KEY},${OPENAI_KEY_2}`),
      config: configWith(models),
      clock: new FakeClock({ auto: true }),
      onEvent: rec.onEvent,
    });
    const out = await drain(client);
    const err = out.error as ProviderError;
    expect(err).toBeInstanceOf(ProviderError);
    expect(rec.events.length).toBeGreaterThan(3);
    const visible = [err.message, String(err), err.stack ?? '', JSON.stringify(err), JSON.stringify(rec.events), inspect(err, { depth: 8 })].join('\n');
    for (const key of [OPENAI_KEY, OPENAI_KEY_2, ANTHROPIC_KEY]) {
      expect(visible).not.toContain(key);
      expect(visible).not.toContain(key.slice(8));
    }
    expect(fake.server.requests.filter((r) => r.path === '/v1/chat/completions').length).toBe(2);
  });

  it('scrubs a key that a provider echoes in its error text', async () => {
    fake.server.script('m-a', { status: 401, errorBody: { error: { message: `Incorrect API key provided: ${OPENAI_KEY}`, code: 'invalid_api_key' } } });
    const client = resolveModelClient('openai/m-a', { env: fakeEnv(fake.server), config: configWith([testModel('openai/m-a')]) });
    const err = (await drain(client)).error as ProviderError;
    expect(err.kind).toBe('auth');
    const cause = err.details.cause as Error;
    expect(cause.message).toContain('Incorrect API key provided: [OPENAI_API_KEY]');
    expect(inspect(err, { depth: 8 })).not.toContain(OPENAI_KEY);
  });
});

describe('server-wide governor', () => {
  it('lets ten sessions sharing a key send only what its bucket allows until the clock moves', async () => {
    fake.server.setHandler(() => ({ text: 'ok' }));
    const clock = new FakeClock();
    const governor = new Governor({ clock });
    const config = configWith([testModel('openai/m-a')], { providers: { openai: { requestsPerMinute: 3 } } });
    const sessions = Array.from({ length: 10 }, () => resolveModelClient('openai/m-a', { env: fakeEnv(fake.server), config, clock, governor }));
    const results = sessions.map((client) => drain(client));
    /** Request count once at least `n` arrived (or 5 s passed), after a short quiet period. */
    const reached = async (n: number) => {
      for (let i = 0; i < 500 && fake.server.requests.length < n; i++) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 150));
      await settle();
      return fake.server.requests.length;
    };
    expect(await reached(3)).toBe(3);
    await clock.advance(19_999);
    expect(await reached(0)).toBe(3);
    await clock.advance(1);
    expect(await reached(4)).toBe(4);
    await clock.advance(60_000);
    expect(await reached(7)).toBe(7);
    await clock.advance(60_000);
    expect(await reached(10)).toBe(10);
    const outs = await Promise.all(results);
    expect(outs.map((o) => o.text)).toEqual(Array(10).fill('ok'));
  });

  it('makes every session honour a Retry-After on a shared key', async () => {
    fake.server.script('m-a', { status: 429, headers: { 'retry-after': '30' } }, { text: 'first' }, { text: 'second' });
    const clock = new FakeClock();
    const governor = new Governor({ clock });
    const config = configWith([testModel('openai/m-a')]);
    const a = resolveModelClient('openai/m-a', { env: fakeEnv(fake.server), config, clock, governor });
    const b = resolveModelClient('openai/m-a', { env: fakeEnv(fake.server), config, clock, governor });
    const first = drain(a);
    for (let i = 0; i < 300 && !clock.sleeps.includes(30_000); i++) await new Promise((r) => setTimeout(r, 10));
    expect(clock.sleeps).toContain(30_000);
    const second = drain(b);
    await new Promise((r) => setTimeout(r, 100));
    expect(fake.server.requests).toHaveLength(1);
    await clock.advance(30_000);
    expect([(await first).text, (await second).text].sort()).toEqual(['first', 'second']);
    expect(fake.server.requests).toHaveLength(3);
  });
});
