import { describe, expect, it } from 'vitest';
import { startFakeModelServer } from '@tandem/testkit';
import { createOpenAIChatClient } from '@tandem/ai';
import { TokenCalibration } from './calibration.js';
import { collectReply } from './collect-reply.js';
import { ContextAccountant } from './context-accountant.js';

describe('TokenCalibration', () => {
  it('starts at 1 and learns the ratio per model from usage reports', () => {
    const cal = new TokenCalibration({ alpha: 0.5 });
    expect(cal.apply('openai/gpt-4o', 1000)).toBe(1000);
    cal.observe('openai/gpt-4o', 1000, 700); // o200k counts CJK lower than our estimate
    expect(cal.ratio('openai/gpt-4o')).toBeCloseTo(0.7);
    cal.observe('openai/gpt-4o', 1000, 600);
    expect(cal.ratio('openai/gpt-4o')).toBeCloseTo(0.65); // moved half way
    expect(cal.apply('openai/gpt-4o', 1000)).toBe(650);
    expect(cal.ratio('anthropic/claude-sonnet-4-5')).toBe(1); // other models untouched
  });

  it('converges on a steady ratio', () => {
    const cal = new TokenCalibration();
    for (let i = 0; i < 30; i++) cal.observe('m', 2000, 2600);
    expect(cal.ratio('m')).toBeCloseTo(1.3, 2);
    expect(cal.samples('m')).toBe(30);
  });

  it('ignores garbage and clamps outliers', () => {
    const cal = new TokenCalibration();
    cal.observe('m', 0, 100);
    cal.observe('m', 10, 100); // too small a sample
    cal.observe('m', 1000, Number.NaN);
    cal.observe('m', 1000, -5);
    expect(cal.samples('m')).toBe(0);
    cal.observe('m', 1000, 1_000_000);
    expect(cal.ratio('m')).toBe(4);
  });

  it('round-trips through snapshot/restore and rejects bad data', () => {
    const cal = new TokenCalibration();
    cal.observe('m', 1000, 800);
    const copy = new TokenCalibration();
    copy.restore(JSON.parse(JSON.stringify(cal.snapshot())));
    expect(copy.ratio('m')).toBeCloseTo(0.8);
    copy.restore('nonsense');
    copy.restore({ x: { ratio: 'high' } });
    expect(copy.ratio('x')).toBe(1);
  });
});

describe('calibration from a real usage report (fake server through the OpenAI adapter)', () => {
  it('learns the ratio from the usage event of a streamed reply', async () => {
    const server = await startFakeModelServer();
    try {
      const client = createOpenAIChatClient({ id: 'openai/gpt-4o', model: 'gpt-4o', baseURL: server.openaiBaseURL, apiKey: 'k' });
      const cal = new TokenCalibration({ alpha: 1 });
      const acc = new ContextAccountant({ windowTokens: 128_000, outputReserve: 1000, model: client.id, calibration: cal });
      const conversation = [{ role: 'user' as const, text: '我们的团队正在开发一个新的命令行工具，用来帮助开发者。'.repeat(10) }];
      acc.sync(conversation);
      const raw = acc.rawInputEstimate();
      server.enqueue({ text: 'ok', usage: { input: Math.round(raw * 0.7), output: 1 } });
      const reply = await collectReply(client, { system: '', messages: conversation, tools: [] }, new AbortController().signal);
      expect(reply.usage?.inputTokens).toBe(Math.round(raw * 0.7));
      acc.observeUsage(reply.usage!.inputTokens, raw);
      expect(cal.ratio('openai/gpt-4o')).toBeCloseTo(0.7, 2);
      expect(acc.usage().breakdown.messages).toBeCloseTo(raw * 0.7, -1);
    } finally {
      await server.close();
    }
  });
});
