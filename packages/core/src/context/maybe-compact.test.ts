import { describe, expect, it } from 'vitest';
import { SessionEventSchema } from '@tandem/shared';
import type { Message } from '@tandem/ai';
import { ContextAccountant } from './context-accountant.js';
import { contextUsageEvent, maybeCompact } from './maybe-compact.js';
import { pairsIntact } from './exchange-boundaries.js';
import { fakeModelServerPerFile, openaiClient } from '@tandem/ai/testing/fake-server';

const fake = fakeModelServerPerFile();

const aux = (model: string) => openaiClient(fake.server, model);
const stamp = { sessionId: 's', seq: 1, ts: new Date(0).toISOString() };

function longConversation(turns: number): Message[] {
  const out: Message[] = [];
  for (let t = 0; t < turns; t++) {
    out.push({ role: 'user', text: `Step ${t}: please look at src/file${t}.ts` });
    out.push({ role: 'assistant', text: '', toolCalls: [{ id: `c${t}`, name: 'read_file', args: {}, rawArgs: `{"path":"src/file${t}.ts"}` }] });
    out.push({ role: 'tool', callId: `c${t}`, name: 'read_file', output: 'const x = 1;\n'.repeat(40), isError: false });
    out.push({ role: 'assistant', text: `File ${t} looks fine.`, toolCalls: [] });
  }
  return out;
}

function accountantFor(windowTokens: number): ContextAccountant {
  const acc = new ContextAccountant({ windowTokens, outputReserve: 500 });
  acc.setSystem('You are a coding agent.');
  acc.setTools([{ name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } }]);
  return acc;
}

describe('maybeCompact (the per-request seam)', () => {
  it('does nothing and calls no model below the threshold', async () => {
    const conv = longConversation(2);
    const before = fake.server.requests.length;
    const out = await maybeCompact(conv, { accountant: accountantFor(100_000), client: aux('never'), signal: new AbortController().signal });
    expect(out).toEqual({ action: 'none' });
    expect(fake.server.requests.length).toBe(before);
    expect(conv).toHaveLength(8);
  });

  it('compacts in place over the threshold and returns a valid compaction event', async () => {
    const conv = longConversation(20);
    const acc = accountantFor(4000);
    acc.sync(conv);
    expect(acc.usage().percent).toBeGreaterThanOrEqual(80);
    fake.server.script('sum', { text: 'Steps 0-17 read src/file0..17.ts; all fine.' });
    const out = await maybeCompact(conv, { accountant: acc, client: aux('sum'), signal: new AbortController().signal, keepRecentMessages: 8 });
    expect(out.action).toBe('compacted');
    if (out.action !== 'compacted') return;
    expect(SessionEventSchema.parse({ ...stamp, ...out.event }).type).toBe('compaction');
    expect(conv[0]).toMatchObject({ role: 'user', text: expect.stringMatching(/^Summary of earlier conversation \(\d+ messages folded\):\nSteps 0-17/) });
    expect(conv.length).toBe(1 + 80 - out.event.foldedMessages);
    expect(pairsIntact(conv)).toBe(true);
    expect(acc.usage().percent).toBeLessThan(80);
    expect(acc.usage().usedTokens).toBeLessThan(out.event.tokensBefore);
    expect(SessionEventSchema.parse({ ...stamp, ...contextUsageEvent(acc) }).type).toBe('context_usage');
  });

  it('compacts on request (force) below the threshold', async () => {
    const conv = longConversation(4);
    fake.server.script('sum-forced', { text: 'Earlier steps read files; fine.' });
    const out = await maybeCompact(conv, {
      accountant: accountantFor(100_000),
      client: aux('sum-forced'),
      signal: new AbortController().signal,
      force: true,
      keepRecentMessages: 4,
    });
    expect(out).toMatchObject({ action: 'compacted', event: { foldedMessages: 12 } });
    expect(conv).toHaveLength(5);
  });

  it('returns compaction_skipped with the reason when the tail alone fills the window', async () => {
    const conv: Message[] = [
      { role: 'user', text: 'hi' },
      { role: 'assistant', text: '', toolCalls: [{ id: 'c', name: 'read_file', args: {}, rawArgs: '{}' }] },
      { role: 'tool', callId: 'c', name: 'read_file', output: 'word '.repeat(3000), isError: false },
    ];
    const before = fake.server.requests.length;
    const out = await maybeCompact(conv, { accountant: accountantFor(4000), client: aux('never'), signal: new AbortController().signal });
    expect(out.action).toBe('skipped');
    if (out.action === 'skipped') expect(SessionEventSchema.parse({ ...stamp, ...out.event }).type).toBe('compaction_skipped');
    expect(fake.server.requests.length).toBe(before); // no useless summary call
    expect(conv).toHaveLength(3);
  });

  it('leaves the conversation as it was when the summary call fails', async () => {
    const conv = longConversation(20);
    const copy = conv.slice();
    fake.server.script('sum-down', { status: 400, errorBody: { error: { message: 'bad', type: 'invalid_request_error' } } });
    const out = await maybeCompact(conv, { accountant: accountantFor(4000), client: aux('sum-down'), signal: new AbortController().signal });
    expect(out).toMatchObject({
      action: 'failed',
      event: { type: 'compaction_skipped', reason: expect.stringMatching(/^compaction failed: the summary call to openai\/sum-down failed/) },
    });
    expect(conv).toEqual(copy);
  });
});
