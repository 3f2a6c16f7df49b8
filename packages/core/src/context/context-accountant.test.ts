import { describe, expect, it } from 'vitest';
import type { Message } from '@tandem/ai';
import { TokenCalibration } from './calibration.js';
import { ContextAccountant } from './context-accountant.js';
import { estimateMessageTokens, estimateTextTokens } from './estimate-tokens.js';

/** A user message that counts how often its text is read (i.e. estimated). */
function countedMessage(text: string, reads: { n: number }): Message {
  return {
    role: 'user',
    get text() {
      reads.n++;
      return text;
    },
  } as Message;
}

describe('ContextAccountant', () => {
  it('adds system, tools, messages and the output reserve', () => {
    const acc = new ContextAccountant({ windowTokens: 1000, outputReserve: 100 });
    acc.setSystem('You are a helpful agent.');
    acc.setTools([{ name: 'read_file', description: 'Read a file', parameters: { type: 'object' } }]);
    const msg: Message = { role: 'user', text: 'Hello there, please read package.json' };
    acc.append(msg);
    const u = acc.usage();
    expect(u.breakdown.messages).toBe(estimateMessageTokens(msg));
    expect(u.breakdown.system).toBe(estimateTextTokens('You are a helpful agent.'));
    expect(u.breakdown.tools).toBeGreaterThan(0);
    expect(u.usedTokens).toBe(u.breakdown.system + u.breakdown.tools + u.breakdown.messages + 100);
    expect(u.percent).toBeCloseTo((u.usedTokens / 1000) * 100, 1);
  });

  it('estimates each message once however often it syncs (O(1) per appended message)', () => {
    const reads = { n: 0 };
    const conversation: Message[] = [];
    const acc = new ContextAccountant({ windowTokens: 1_000_000, outputReserve: 0 });
    for (let i = 0; i < 5000; i++) {
      conversation.push(countedMessage(`message number ${i}`, reads));
      acc.sync(conversation);
      acc.usage();
    }
    expect(reads.n).toBe(5000);
    expect(acc.messageEstimates()).toHaveLength(5000);
  });

  it('re-estimates only the changed part of a conversation the host rebuilt as a new array', () => {
    const reads = { n: 0 };
    const shared = Array.from({ length: 1000 }, (_, i) => countedMessage(`kept ${i}`, reads));
    const acc = new ContextAccountant({ windowTokens: 1_000_000, outputReserve: 0 });
    // The loop's copy: shared history plus this turn's own objects.
    acc.sync([...shared, countedMessage('loop user', reads), countedMessage('loop answer', reads)]);
    expect(reads.n).toBe(1002);
    // Next turn the host hands over a fresh copy whose last messages are its own equal objects.
    const rebuilt = [...shared, countedMessage('loop user', reads), countedMessage('loop answer', reads), countedMessage('next', reads)];
    acc.sync(rebuilt);
    expect(reads.n).toBe(1005); // the 1,000 shared messages were not estimated again
    const fresh = new ContextAccountant({ windowTokens: 1_000_000, outputReserve: 0 });
    fresh.reset(rebuilt);
    expect(acc.usage()).toEqual(fresh.usage());
  });

  it('follows truncation and replacement of the conversation', () => {
    const acc = new ContextAccountant({ windowTokens: 10_000, outputReserve: 0 });
    const conv: Message[] = Array.from({ length: 10 }, (_, i) => ({ role: 'user', text: `m${i} `.repeat(i + 1) }));
    acc.sync(conv);
    const full = acc.usage().usedTokens;
    acc.sync(conv.slice(0, 4)); // a cancelled turn truncates back
    const four = conv.slice(0, 4).reduce((n, m) => n + estimateMessageTokens(m), 0);
    expect(acc.usage().usedTokens).toBe(four);
    const compacted: Message[] = [{ role: 'user', text: 'Summary of earlier conversation: …' }, ...conv.slice(8)];
    acc.sync(compacted);
    expect(acc.usage().usedTokens).toBe(compacted.reduce((n, m) => n + estimateMessageTokens(m), 0));
    expect(acc.usage().usedTokens).toBeLessThan(full);
  });

  it('applies the model calibration learned from usage reports', () => {
    const cal = new TokenCalibration({ alpha: 1 });
    const acc = new ContextAccountant({ windowTokens: 100_000, outputReserve: 0, model: 'openai/gpt-4o', calibration: cal });
    acc.append({ role: 'user', text: '我们的团队正在开发一个新的命令行工具。'.repeat(20) });
    const raw = acc.rawInputEstimate();
    acc.observeUsage(Math.round(raw * 0.7));
    expect(acc.usage().usedTokens).toBeCloseTo(raw * 0.7, -1);
    expect(acc.ratio()).toBeCloseTo(0.7, 2);
  });

  it('says when compaction is due, at 80 % of the window', () => {
    const acc = new ContextAccountant({ windowTokens: 1000, outputReserve: 700 });
    expect(acc.shouldCompact()).toBe(false);
    acc.append({ role: 'user', text: 'word '.repeat(200) });
    expect(acc.shouldCompact()).toBe(true);
  });

  it('refuses a window that is not a positive number', () => {
    expect(() => new ContextAccountant({ windowTokens: 0, outputReserve: 0 })).toThrow(/windowTokens/);
  });
});
