import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, startFakeModelServer, type FakeModelServer } from '../src/index.js';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function post(path: string, body: object): Promise<Response> {
  return fetch(`${server!.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

function sseData(text: string): string[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => l.slice(6));
}

describe('fake model server, OpenAI format', () => {
  it('streams text deltas, tool call deltas, a finish reason, usage and [DONE]', async () => {
    server = await startFakeModelServer();
    server.enqueue({ chunks: ['Hel', 'lo'], toolCalls: [{ id: 'c1', name: 'read_file', args: { path: 'a.txt' } }], usage: { input: 7, output: 3 } });
    const res = await post('/v1/chat/completions', { model: 'm', messages: [], stream: true, stream_options: { include_usage: true } });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const data = sseData(await res.text());
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((d) => JSON.parse(d));
    const text = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
    expect(text).toBe('Hello');
    const toolDeltas = chunks.flatMap((c) => c.choices[0]?.delta?.tool_calls ?? []);
    expect(toolDeltas[0]).toMatchObject({ index: 0, id: 'c1', function: { name: 'read_file' } });
    expect(toolDeltas.length).toBeGreaterThan(2);
    expect(toolDeltas.map((t: any) => t.function.arguments).join('')).toBe('{"path":"a.txt"}');
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe('tool_calls');
    expect(chunks.at(-1).usage).toEqual({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10, prompt_tokens_details: { cached_tokens: 0 } });
    expect(server.requests[0]).toMatchObject({ path: '/v1/chat/completions', model: 'm', format: 'openai', stream: true });
  });

  it('reports the prefix a request shares with the one before as cached_tokens, and keeps each body as received', async () => {
    server = await startFakeModelServer();
    server.enqueue({ text: 'a' }, { text: 'b' }, { text: 'c' });
    const first = { model: 'm', messages: [{ role: 'user', content: 'x'.repeat(400) }] };
    const json = async (body: object): Promise<any> => (await post('/v1/chat/completions', body)).json();
    expect((await json(first)).usage.prompt_tokens_details).toEqual({ cached_tokens: 0 });
    const second: any = await json({ ...first, messages: [...first.messages, { role: 'assistant', content: 'a' }] });
    expect(second.usage.prompt_tokens_details.cached_tokens).toBeGreaterThan(100);
    expect(second.usage.prompt_tokens).toBeGreaterThanOrEqual(second.usage.prompt_tokens_details.cached_tokens);
    expect(server.requests[1]!.cache).toEqual({ read: second.usage.prompt_tokens_details.cached_tokens, write: 0 });
    expect(server.requests[0]!.rawBody).toBe(JSON.stringify(first));
    server.clearCache();
    expect((await json(first)).usage.prompt_tokens_details.cached_tokens).toBe(0);
  });

  it('answers non-streaming requests with one JSON completion', async () => {
    server = await startFakeModelServer();
    server.enqueue({ text: 'plain' });
    const json: any = await (await post('/v1/chat/completions', { model: 'm', messages: [] })).json();
    expect(json.choices[0].message.content).toBe('plain');
    expect(json.choices[0].finish_reason).toBe('stop');
  });

  it('uses a model script before the default queue, then the handler, then a clear 500', async () => {
    server = await startFakeModelServer();
    server.enqueue({ text: 'default' });
    server.script('special', { text: 'scripted' });
    const a: any = await (await post('/v1/chat/completions', { model: 'special', messages: [] })).json();
    const b: any = await (await post('/v1/chat/completions', { model: 'special', messages: [] })).json();
    expect(a.choices[0].message.content).toBe('scripted');
    expect(b.choices[0].message.content).toBe('default');
    const empty = await post('/v1/chat/completions', { model: 'x', messages: [] });
    expect(empty.status).toBe(500);
    expect(JSON.stringify(await empty.json())).toContain('script ran out');
    server.setHandler((req) => ({ text: `computed for ${req.model}` }));
    const c: any = await (await post('/v1/chat/completions', { model: 'y', messages: [] })).json();
    expect(c.choices[0].message.content).toBe('computed for y');
  });

  it('sends error statuses with headers and a JSON body', async () => {
    server = await startFakeModelServer();
    server.enqueue({ status: 429, headers: { 'retry-after': '2' } });
    const res = await post('/v1/chat/completions', { model: 'm', messages: [] });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(((await res.json()) as any).error.type).toBe('rate_limit_error');
  });

  it('cuts the stream after N events', async () => {
    server = await startFakeModelServer();
    server.enqueue({ chunks: ['a', 'b', 'c', 'd'], cutAfterChunks: 2 });
    const res = await post('/v1/chat/completions', { model: 'm', messages: [], stream: true });
    await expect(res.text()).rejects.toThrow();
  });

  it('keeps a hanging request open until close()', async () => {
    server = await startFakeModelServer();
    server.enqueue({ hang: true });
    const pending = post('/v1/chat/completions', { model: 'm', messages: [], stream: true }).then(
      () => 'answered',
      () => 'failed',
    );
    const raced = await Promise.race([pending, new Promise((r) => setTimeout(() => r('still open'), 150))]);
    expect(raced).toBe('still open');
    await server.close();
    server = undefined;
    expect(await pending).toBe('failed');
  });
});

describe('fake model server, Anthropic format', () => {
  it('streams message_start, text and tool_use blocks, message_delta and message_stop', async () => {
    server = await startFakeModelServer();
    server.enqueue({ text: 'Hi', toolCalls: [{ name: 'ls', args: '{"dir":' }] });
    const res = await post('/v1/messages', { model: 'claude', max_tokens: 10, messages: [], stream: true });
    const text = await res.text();
    const names = text
      .split('\n')
      .filter((l) => l.startsWith('event: '))
      .map((l) => l.slice(7));
    expect(names[0]).toBe('message_start');
    expect(names.slice(-2)).toEqual(['message_delta', 'message_stop']);
    const data = sseData(text).map((d) => JSON.parse(d));
    expect(data.find((d) => d.type === 'content_block_start' && d.content_block.type === 'tool_use').content_block.name).toBe('ls');
    const partial = data
      .filter((d) => d.delta?.type === 'input_json_delta')
      .map((d) => d.delta.partial_json)
      .join('');
    expect(partial).toBe('{"dir":');
    expect(data.find((d) => d.type === 'message_delta').delta.stop_reason).toBe('tool_use');
  });

  it('reports cache reads and writes at cache_control breakpoints in message_start usage', async () => {
    server = await startFakeModelServer();
    server.enqueue({ text: 'a' }, { text: 'b' });
    const system = [{ type: 'text', text: 's'.repeat(800), cache_control: { type: 'ephemeral' } }];
    const usageOf = async (messages: object[]) => {
      const text = await (await post('/v1/messages', { model: 'claude', max_tokens: 10, system, messages, stream: true })).text();
      return sseData(text).map((d) => JSON.parse(d))[0].message.usage;
    };
    const first = await usageOf([{ role: 'user', content: 'hello' }]);
    expect(first.cache_read_input_tokens).toBe(0);
    expect(first.cache_creation_input_tokens).toBeGreaterThan(200);
    const second = await usageOf([{ role: 'user', content: [{ type: 'text', text: 'hello again', cache_control: { type: 'ephemeral' } }] }]);
    expect(second.cache_read_input_tokens).toBe(first.cache_creation_input_tokens);
    expect(second.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(second.input_tokens).toBeGreaterThanOrEqual(0);
    expect(server.requests.map((r) => r.cache)).toEqual([
      { read: 0, write: first.cache_creation_input_tokens },
      { read: second.cache_read_input_tokens, write: second.cache_creation_input_tokens },
    ]);
  });

  it('uses Anthropic error bodies', async () => {
    server = await startFakeModelServer();
    server.enqueue({ status: 401 });
    const res = await post('/v1/messages', { model: 'claude', messages: [] });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  });
});

describe('extra routes and temp dirs', () => {
  it('serves extra routes', async () => {
    server = await startFakeModelServer({ routes: { 'GET /api/tags': () => ({ json: { models: [{ name: 'qwen' }] } }) } });
    const res = await fetch(`${server.url}/api/tags`);
    expect(await res.json()).toEqual({ models: [{ name: 'qwen' }] });
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/api/tags', format: 'route' });
    expect((await fetch(`${server.url}/nope`)).status).toBe(404);
  });

  it('makes and cleans up a temp dir', async () => {
    const dir = await makeTempDir('tk-');
    await writeFile(join(dir.path, 'f'), 'x');
    expect(existsSync(join(dir.path, 'f'))).toBe(true);
    await dir.cleanup();
    expect(existsSync(dir.path)).toBe(false);
  });
});
