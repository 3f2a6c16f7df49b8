import { describe, expect, it } from 'vitest';
import { anthropicSegments, commonPrefix, openaiPrompt, PromptCacheSim } from '../src/prompt-cache.js';
import type { FakeRequest } from '../src/fake-reply.js';

const EPHEMERAL = { type: 'ephemeral' };

function request(format: 'openai' | 'anthropic', body: object, model = 'm'): FakeRequest {
  return { method: 'POST', path: '/', headers: {}, body, rawBody: JSON.stringify(body), model, format, stream: true };
}

/** An Anthropic body: a 4,000-character system prompt, then `turns` user/assistant text turns; `marks` are the message indexes carrying a breakpoint. */
function anthropicBody(turns: number, marks: number[], systemMark = true): object {
  const messages = Array.from({ length: turns }, (_, i) => ({
    role: i % 2 === 0 ? 'user' : 'assistant',
    content: [{ type: 'text', text: `message ${i} `.repeat(20), ...(marks.includes(i) ? { cache_control: EPHEMERAL } : {}) }],
  }));
  return { system: [{ type: 'text', text: 's'.repeat(4000), ...(systemMark ? { cache_control: EPHEMERAL } : {}) }], messages };
}

const tokensUpTo = (body: object, blocks: number) =>
  anthropicSegments(body)
    .slice(0, blocks)
    .reduce((n, s) => n + Math.ceil(s.text.length / 4), 0);

describe('PromptCacheSim, Anthropic rules', () => {
  it('writes the prefix up to the last breakpoint and reads it back from the next request', () => {
    const sim = new PromptCacheSim();
    const first = anthropicBody(1, [0]);
    expect(sim.use(request('anthropic', first))).toEqual({ read: 0, write: tokensUpTo(first, 2) });
    const second = anthropicBody(3, [0, 2]);
    expect(sim.use(request('anthropic', second))).toEqual({ read: tokensUpTo(second, 2), write: tokensUpTo(second, 4) - tokensUpTo(second, 2) });
  });

  it('does not count a cache_control marker as part of the cached bytes', () => {
    const sim = new PromptCacheSim();
    sim.use(request('anthropic', anthropicBody(2, [1])));
    // The same prefix with the breakpoint moved on: message 1 no longer carries the marker.
    const next = anthropicBody(4, [3]);
    expect(sim.use(request('anthropic', next)).read).toBe(tokensUpTo(next, 3));
  });

  it('finds an earlier entry at most lookbackBlocks blocks before a breakpoint', () => {
    const sim = new PromptCacheSim({ lookbackBlocks: 20 });
    sim.use(request('anthropic', anthropicBody(2, [1], false)));
    // 20 blocks on: still found. 21 on: only a breakpoint nearer the entry would find it.
    expect(sim.use(request('anthropic', anthropicBody(22, [21], false))).read).toBe(tokensUpTo(anthropicBody(2, [1]), 3));
    const far = new PromptCacheSim({ lookbackBlocks: 20 });
    far.use(request('anthropic', anthropicBody(2, [1], false)));
    expect(far.use(request('anthropic', anthropicBody(23, [22], false))).read).toBe(0);
  });

  it('caches nothing without a breakpoint, nor a prefix under minTokens', () => {
    const sim = new PromptCacheSim({ minTokens: 100_000 });
    expect(sim.use(request('anthropic', anthropicBody(3, [2])))).toEqual({ read: 0, write: 0 });
    expect(sim.use(request('anthropic', anthropicBody(3, [2])))).toEqual({ read: 0, write: 0 });
    const none = new PromptCacheSim();
    expect(none.use(request('anthropic', anthropicBody(3, [], false)))).toEqual({ read: 0, write: 0 });
  });

  it('keeps each model its own cache', () => {
    const sim = new PromptCacheSim();
    sim.use(request('anthropic', anthropicBody(1, [0]), 'a'));
    expect(sim.use(request('anthropic', anthropicBody(1, [0]), 'b')).read).toBe(0);
    expect(sim.use(request('anthropic', anthropicBody(1, [0]), 'a')).write).toBe(0);
  });
});

describe('PromptCacheSim, OpenAI rules', () => {
  const body = (messages: string[]) => ({
    tools: [{ type: 'function', function: { name: 't' } }],
    messages: messages.map((content) => ({ role: 'user', content })),
  });

  it('reads the bytes a prompt shares with an earlier one, in steps, from minTokens on', () => {
    const sim = new PromptCacheSim();
    const first = body(['a'.repeat(2000)]);
    expect(sim.use(request('openai', first))).toEqual({ read: 0, write: 0 });
    const second = body(['a'.repeat(2000), 'more']);
    expect(sim.use(request('openai', second)).read).toBe(Math.floor(commonPrefix(openaiPrompt(first), openaiPrompt(second)) / 4));
    const stepped = new PromptCacheSim({ openaiStep: 128, minTokens: 1024 });
    stepped.use(request('openai', first));
    expect(stepped.use(request('openai', second)).read).toBe(0); // ~510 tokens shared: under the minimum
    stepped.use(request('openai', body(['a'.repeat(8000)])));
    expect(stepped.use(request('openai', body(['a'.repeat(8000), 'x']))).read).toBe(1920);
  });

  it('reads little when an early message changed', () => {
    const sim = new PromptCacheSim();
    sim.use(request('openai', body(['one', 'a'.repeat(4000)])));
    expect(sim.use(request('openai', body(['two', 'a'.repeat(4000)]))).read).toBeLessThan(40);
  });
});

describe('PromptCacheSim, counting the prompt', () => {
  it('with countPrompt, reports the prompt tokens themselves: all of it read or written when the last block is a breakpoint', () => {
    const sim = new PromptCacheSim({ countPrompt: true });
    const body = anthropicBody(3, [2]);
    const first = sim.use(request('anthropic', body));
    expect(first.prompt).toBe(tokensUpTo(body, 4));
    expect(first.read + first.write).toBe(first.prompt);
    expect(new PromptCacheSim().use(request('anthropic', body)).prompt).toBeUndefined();
  });
});
