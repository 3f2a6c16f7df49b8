import { performance } from 'node:perf_hooks';
import { ContextAccountant, estimateMessageTokens } from '@tandem/core';
import type { Message } from '@tandem/ai';

export interface ContextBenchRow {
  messages: number;
  /** Mean µs per appended event (sync + usage) measured around this conversation length. */
  incrementalMicros: number;
  /** Baseline: µs per event when the whole conversation is re-estimated each time. */
  naiveMicros: number;
}

/**
 * Cost per appended event at several conversation lengths. The
 * incremental accountant should stay flat; the naive baseline grows with the conversation.
 */
export function benchContextAccounting(sizes: readonly number[] = [100, 1_000, 5_000], sample = 200): ContextBenchRow[] {
  const rows: ContextBenchRow[] = [];
  for (const size of sizes) {
    const conversation: Message[] = [];
    const accountant = new ContextAccountant({ windowTokens: 200_000, outputReserve: 8_000 });
    const warm = Math.max(0, size - sample);
    for (let i = 0; i < warm; i++) {
      conversation.push(syntheticMessage(i));
      accountant.sync(conversation);
    }
    let start = performance.now();
    let sink = 0;
    for (let i = warm; i < size; i++) {
      conversation.push(syntheticMessage(i));
      accountant.sync(conversation);
      sink += accountant.usage().usedTokens;
    }
    const incrementalMicros = ((performance.now() - start) * 1000) / Math.max(1, size - warm);

    const naiveEvents = Math.min(20, size);
    start = performance.now();
    for (let e = 0; e < naiveEvents; e++) {
      let total = 0;
      for (const m of conversation) total += estimateMessageTokens(m);
      sink += total;
    }
    const naiveMicros = ((performance.now() - start) * 1000) / Math.max(1, naiveEvents);
    if (sink < 0) throw new Error('unreachable');
    rows.push({ messages: size, incrementalMicros: round(incrementalMicros), naiveMicros: round(naiveMicros) });
  }
  return rows;
}

function syntheticMessage(i: number): Message {
  switch (i % 3) {
    case 0:
      return { role: 'user', text: `Please look at src/module${i}.ts and fix the failing test number ${i}; 请检查这个文件。` };
    case 1:
      return {
        role: 'assistant',
        text: 'I will read the file first.',
        toolCalls: [{ id: `c${i}`, name: 'read_file', args: { path: `src/module${i}.ts` }, rawArgs: `{"path":"src/module${i}.ts"}` }],
      };
    default:
      return {
        role: 'tool',
        callId: `c${i - 1}`,
        name: 'read_file',
        output: 'export function f(x: number) {\n  return x * 2;\n}\n'.repeat(20),
        isError: false,
      };
  }
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
