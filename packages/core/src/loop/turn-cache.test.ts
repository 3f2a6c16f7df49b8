import { describe, expect, it } from 'vitest';
import { commonPrefix, openaiPrompt } from '@tandem/testkit';
import type { Message } from '@tandem/ai';
import { resolveModelClient } from '@tandem/ai';
import { configWith, fakeEnv, testModel } from '@tandem/ai/testing/chain-fixture';
import { fakeModelServerPerTest } from '@tandem/ai/testing/fake-server';
import type { AnyTool } from '../tools/define.js';
import { runTurn } from './run-turn.js';
import { collect, echoTool, ofType, turnOptions } from './turn-harness.test-helper.js';

const fake = fakeModelServerPerTest();
const SONNET = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, checked: '2026-12-05' };

function client(spec: 'anthropic/claude-test' | 'openai/gpt-test') {
  const config = configWith([testModel('anthropic/claude-test', { price: SONNET }), testModel('openai/gpt-test')]);
  return resolveModelClient(spec, { env: fakeEnv(fake.server), config });
}

const echoCall = (i: number) => ({ toolCalls: [{ name: 'echo', args: { text: `step ${i}` } }] });

/** Two turns of three tool steps each, against one model, on one conversation. */
async function twoTurns(spec: 'anthropic/claude-test' | 'openai/gpt-test') {
  const model = client(spec);
  const conversation: Message[] = [];
  const turns = [];
  for (const turnId of ['t1', 't2']) {
    fake.server.enqueue(echoCall(1), echoCall(2), echoCall(3), { text: `done ${turnId}` });
    turns.push(await collect(runTurn(turnOptions({ model, tools: [echoTool as AnyTool], conversation, turnId, system: 'You are a test agent. '.repeat(50) }))));
  }
  return turns;
}

describe('a session on Anthropic', () => {
  it('each request reads what the request before it wrote; the usage event and turn_done count cache reads and writes apart and price them', async () => {
    const turns = await twoTurns('anthropic/claude-test');
    const requests = fake.server.requests;
    expect(requests).toHaveLength(8);
    for (let i = 1; i < requests.length; i++) {
      expect(requests[i]!.cache!.read).toBe(requests[i - 1]!.cache!.read + requests[i - 1]!.cache!.write);
    }
    const usage = ofType(turns[1]!, 'usage')[0]!;
    const mine = requests.slice(4);
    expect(usage.cacheReadTokens).toBe(mine.reduce((n, r) => n + r.cache!.read, 0));
    expect(usage.cacheWriteTokens).toBe(mine.reduce((n, r) => n + r.cache!.write, 0));
    expect(usage.cacheReadTokens).toBeGreaterThan(usage.cacheWriteTokens!);
    const plain = usage.inputTokens - usage.cacheReadTokens! - usage.cacheWriteTokens!;
    expect(usage.costUsd).toBeCloseTo((plain * 3 + usage.cacheReadTokens! * 0.3 + usage.cacheWriteTokens! * 3.75 + usage.outputTokens * 15) / 1e6, 12);
    expect(ofType(turns[1]!, 'turn_done')[0]!.usage).toEqual({
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      cacheReadTokens: usage.cacheReadTokens,
      cacheWriteTokens: usage.cacheWriteTokens,
      costUsd: usage.costUsd,
    });
  });

  it("the first call of each reply carries that request's usage; the others of the reply none", async () => {
    fake.server.enqueue(
      {
        toolCalls: [
          { name: 'echo', args: { text: 'a' } },
          { name: 'echo', args: { text: 'b' } },
        ],
      },
      { text: 'done' },
    );
    const events = await collect(runTurn(turnOptions({ model: client('anthropic/claude-test'), tools: [echoTool as AnyTool] })));
    const calls = ofType(events, 'tool_call');
    expect(calls[0]!.usage).toMatchObject({ cacheWriteTokens: fake.server.requests[0]!.cache!.write, cacheReadTokens: 0 });
    expect(calls[0]!.usage!.costUsd).toBeGreaterThan(0);
    expect(calls[1]).not.toHaveProperty('usage');
  });
});

describe('a session on an OpenAI-format model', () => {
  it('every request over two turns extends the previous one byte for byte and carries prompt_cache_key = the session id', async () => {
    const turns = await twoTurns('openai/gpt-test');
    const prompts = fake.server.requests.map((r) => openaiPrompt(r.body));
    for (let i = 1; i < prompts.length; i++) expect(commonPrefix(prompts[i - 1]!, prompts[i]!)).toBe(prompts[i - 1]!.length);
    expect(new Set(fake.server.requests.map((r) => r.body.prompt_cache_key))).toEqual(new Set(['s1']));
    const usage = ofType(turns[1]!, 'usage')[0]!;
    expect(usage.cacheReadTokens).toBe(fake.server.requests.slice(4).reduce((n, r) => n + r.cache!.read, 0));
    expect(usage.cacheWriteTokens).toBe(0);
    expect(usage).not.toHaveProperty('costUsd'); // the test model has no price
  });

  it('tools that come and go are offered in a fixed order, whatever order they are listed in', async () => {
    const named = (name: string) => ({ ...echoTool, name }) as AnyTool;
    let listed = [named('mcp__b__x'), named('mcp__a__y')];
    fake.server.enqueue(echoCall(1), { text: 'done' });
    const opts = turnOptions({ model: client('openai/gpt-test'), tools: [echoTool as AnyTool], dynamicTools: () => ({ tools: listed, notices: [] }) });
    let asked = 0;
    await collect(runTurn(opts), (e) => {
      if (e.type === 'tool_call' && asked++ === 0) listed = [named('mcp__a__y'), named('mcp__b__x')];
    });
    const names = fake.server.requests.map((r) => r.body.tools.map((t: { function: { name: string } }) => t.function.name));
    expect(names).toEqual([
      ['echo', 'mcp__a__y', 'mcp__b__x'],
      ['echo', 'mcp__a__y', 'mcp__b__x'],
    ]);
  });
});
