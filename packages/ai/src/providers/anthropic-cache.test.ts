import { describe, expect, it } from 'vitest';
import type { FakeRequest } from '@tandem/testkit';
import type { Message } from '../messages.js';
import { countBreakpoints } from './anthropic-cache.js';
import { anthropicClient, fakeModelServerPerTest } from './testing/fake-server.test-helper.js';
import { collectStream } from './testing/adapter-stream.test-helper.js';
import type { ModelStreamEvent, ToolSpec } from './types.js';

const fake = fakeModelServerPerTest();

const SYSTEM = `You are a careful agent. ${'Follow the rules. '.repeat(60)}`;
const tool = (name: string): ToolSpec => ({
  name,
  description: `${name}: ${'does one thing well. '.repeat(20)}`,
  parameters: { type: 'object', properties: { path: { type: 'string' } } },
});
const TOOLS = [tool('edit_file'), tool('read_file'), tool('run_command')];
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

type Usage = Extract<ModelStreamEvent, { type: 'usage' }>;

/** One cached request of the session "s1" (as the loop sends it): the body the server got and the usage read back. */
async function send(conversation: Message[], tools: ToolSpec[] = TOOLS): Promise<{ body: any; usage: Usage; request: FakeRequest }> {
  fake.server.enqueue({ text: 'ok' });
  const client = clientFor();
  const events = await collectStream(client.stream({ system: SYSTEM, messages: conversation, tools, cacheKey: 's1' }, new AbortController().signal));
  const request = fake.server.requests.at(-1)!;
  return { body: request.body, usage: events.find((e): e is Usage => e.type === 'usage')!, request };
}

// One adapter per test, as a session keeps its client (the request bodies are built from the last one).
let client: ReturnType<typeof anthropicClient> | undefined;
let clientServer: unknown;
function clientFor(): ReturnType<typeof anthropicClient> {
  if (!client || clientServer !== fake.server) {
    client = anthropicClient(fake.server, 'claude-test');
    clientServer = fake.server;
  }
  return client;
}

/** Where the breakpoints are: 'tool:NAME', 'system', or 'message:INDEX:BLOCKTYPE'. */
function marks(body: any): string[] {
  const out: string[] = [];
  for (const t of body.tools ?? []) if (t.cache_control) out.push(`tool:${t.name}`);
  for (const b of Array.isArray(body.system) ? body.system : []) if (b.cache_control) out.push('system');
  (body.messages as any[]).forEach((m, i) => {
    for (const b of m.content as any[]) if (b.cache_control) out.push(`message:${i}:${b.type}`);
  });
  return out;
}

/** Every cached token of the previous request is read by the next one. */
const prefixOf = (usage: Usage) => usage.cacheReadTokens + usage.cacheWriteTokens;

const call = (id: string, name = 'read_file') => ({ id, name, args: { path: `${id}.txt` }, rawArgs: JSON.stringify({ path: `${id}.txt` }) });
const step = (id: string): Message[] => [
  { role: 'assistant', text: '', toolCalls: [call(id)] },
  { role: 'tool', callId: id, name: 'read_file', output: `contents of ${id}.txt\n`.repeat(10), isError: false },
];

describe('Anthropic cache breakpoints', () => {
  it('first turn: on the last tool, the system prompt and the user message; the whole prefix is written', async () => {
    const { body, usage } = await send([{ role: 'user', text: 'fix the bug' }]);
    expect(marks(body)).toEqual(['tool:run_command', 'system', 'message:0:text']);
    expect(body.system).toEqual([{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }]);
    expect(usage.cacheReadTokens).toBe(0);
    expect(usage.cacheWriteTokens).toBeGreaterThan(0);
    expect(usage.inputTokens).toBeGreaterThanOrEqual(usage.cacheWriteTokens);
  });

  it('later steps and turns: the newest message and the user turn before it; each request reads all the previous one wrote', async () => {
    const conversation: Message[] = [{ role: 'user', text: 'fix the bug' }];
    let before = await send(conversation);
    for (const id of ['a', 'b', 'c']) {
      conversation.push(...step(id));
      const next = await send(conversation);
      const n = next.body.messages.length;
      expect(marks(next.body)).toEqual(['tool:run_command', 'system', `message:${n - 3}:${n === 3 ? 'text' : 'tool_result'}`, `message:${n - 1}:tool_result`]);
      expect(next.usage.cacheReadTokens).toBe(prefixOf(before.usage));
      expect(next.usage.cacheWriteTokens).toBeGreaterThan(0);
      before = next;
    }
    // The turn ends with an answer; the next turn's request reads everything the last step wrote.
    conversation.push({ role: 'assistant', text: 'Fixed: the loop was off by one.', toolCalls: [] }, { role: 'user', text: 'now add a test' });
    const turn2 = await send(conversation);
    const n = turn2.body.messages.length;
    expect(marks(turn2.body)).toEqual(['tool:run_command', 'system', `message:${n - 3}:tool_result`, `message:${n - 1}:text`]);
    expect(turn2.usage.cacheReadTokens).toBe(prefixOf(before.usage));
  });

  it('after steering: a message folded in after the tool results keeps the read of the previous request', async () => {
    const conversation: Message[] = [{ role: 'user', text: 'fix the bug' }, ...step('a')];
    const before = await send(conversation);
    conversation.push(...step('b'), { role: 'user', text: 'also check the docs' });
    const { body, usage } = await send(conversation);
    const last = body.messages.at(-1);
    // The results and the steering share one user turn; the breakpoint is on its last block, the steering text.
    expect(last.content.map((b: any) => b.type)).toEqual(['tool_result', 'text']);
    expect(last.content[1]).toMatchObject({ text: 'also check the docs', cache_control: { type: 'ephemeral' } });
    expect(last.content[0].cache_control).toBeUndefined();
    expect(countBreakpoints(body)).toBe(4);
    expect(usage.cacheReadTokens).toBe(prefixOf(before.usage));
  });

  it('many parallel results in one step (more blocks than the lookback) are still read through the previous user turn', async () => {
    const conversation: Message[] = [{ role: 'user', text: 'read them all' }];
    const before = await send(conversation);
    const ids = Array.from({ length: 12 }, (_, i) => `p${i}`);
    conversation.push({ role: 'assistant', text: '', toolCalls: ids.map((id) => call(id)) });
    for (const id of ids) conversation.push({ role: 'tool', callId: id, name: 'read_file', output: `${id}\n`, isError: false });
    // 12 tool_use + 12 tool_result blocks: over the API's 20-block lookback from the newest breakpoint.
    const { usage } = await send(conversation);
    expect(usage.cacheReadTokens).toBe(prefixOf(before.usage));
  });

  it('after compaction: the messages are written anew, the tools and system prompt are still read', async () => {
    const conversation: Message[] = [{ role: 'user', text: 'fix the bug' }, ...step('a'), ...step('b')];
    await send(conversation);
    const compacted: Message[] = [{ role: 'user', text: '[Summary of the earlier conversation] read a.txt and b.txt' }, ...step('c')];
    const { body, usage } = await send(compacted);
    expect(marks(body)).toEqual(['tool:run_command', 'system', 'message:0:text', 'message:2:tool_result']);
    const toolsAndSystem = (await fresh([{ role: 'user', text: 'x' }])).toolsAndSystem;
    expect(usage.cacheReadTokens).toBe(toolsAndSystem);
    expect(usage.cacheWriteTokens).toBeGreaterThan(0);
    // And the request after it reads the compacted conversation.
    compacted.push(...step('d'));
    expect((await send(compacted)).usage.cacheReadTokens).toBe(usage.cacheReadTokens + usage.cacheWriteTokens);
  });

  it('with images: the breakpoint sits on the tool_result block that holds them, and the next request reads them', async () => {
    const conversation: Message[] = [
      { role: 'user', text: 'look at the screen' },
      { role: 'assistant', text: '', toolCalls: [call('shot', 'mcp__a__shot')] },
      { role: 'tool', callId: 'shot', name: 'mcp__a__shot', output: 'the screen', isError: false, images: [{ mimeType: 'image/png', bytes: 70, data: PNG }] },
    ];
    const before = await send(conversation);
    const result = before.body.messages.at(-1).content[0];
    expect(result.type).toBe('tool_result');
    expect(result.cache_control).toEqual({ type: 'ephemeral' });
    expect(result.content.map((b: any) => [b.type, b.cache_control])).toEqual([
      ['text', undefined],
      ['image', undefined],
    ]);
    conversation.push({ role: 'assistant', text: 'A login form.', toolCalls: [] }, { role: 'user', text: 'thanks' });
    expect((await send(conversation)).usage.cacheReadTokens).toBe(prefixOf(before.usage));
  });

  it('with MCP tools added mid-session: the tool breakpoint moves to the new last tool, the old tools are read, then all again', async () => {
    const conversation: Message[] = [{ role: 'user', text: 'fix the bug' }, ...step('a')];
    const first = await send(conversation);
    const withMcp = [...TOOLS, tool('mcp__git__status')];
    conversation.push(...step('b'));
    const added = await send(conversation, withMcp);
    expect(marks(added.body)[0]).toBe('tool:mcp__git__status');
    expect(countBreakpoints(added.body)).toBe(4);
    expect(added.usage.cacheReadTokens).toBeGreaterThan(0);
    expect(added.usage.cacheReadTokens).toBeLessThan(prefixOf(first.usage));
    conversation.push(...step('c'));
    const after = await send(conversation, withMcp);
    expect(after.usage.cacheReadTokens).toBe(prefixOf(added.usage));
  });

  it('never more than four breakpoints, however long the session', async () => {
    const conversation: Message[] = [{ role: 'user', text: 'go' }];
    for (let i = 0; i < 30; i++) conversation.push(...step(`s${i}`));
    const { body } = await send(conversation);
    expect(countBreakpoints(body)).toBe(4);
  });

  it('a request outside a session (no cache key) carries no breakpoint and a plain system string', async () => {
    fake.server.enqueue({ text: 'summary' });
    await collectStream(clientFor().stream({ system: SYSTEM, messages: [{ role: 'user', text: 'summarise' }], tools: TOOLS }, new AbortController().signal));
    const body = fake.server.requests.at(-1)!.body;
    expect(countBreakpoints(body)).toBe(0);
    expect(body.system).toBe(SYSTEM);
    expect(fake.server.requests.at(-1)!.rawBody).not.toContain('cache_control');
  });
});

/** What tools + system alone cost in tokens, measured on a fresh server: the write of a one-word first request minus its message. */
async function fresh(conversation: Message[]): Promise<{ toolsAndSystem: number }> {
  const { startFakeModelServer } = await import('@tandem/testkit');
  const { anthropicSegments } = await import('@tandem/testkit');
  const server = await startFakeModelServer();
  try {
    server.enqueue({ text: 'ok' });
    const c = anthropicClient(server, 'claude-test');
    await collectStream(c.stream({ system: SYSTEM, messages: conversation, tools: TOOLS, cacheKey: 's1' }, new AbortController().signal));
    const segments = anthropicSegments(server.requests[0]!.body);
    // tools and the system block come before the first message's block.
    return { toolsAndSystem: segments.slice(0, TOOLS.length + 1).reduce((n, s) => n + Math.ceil(s.text.length / 4), 0) };
  } finally {
    await server.close();
  }
}
