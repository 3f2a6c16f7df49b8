import { type Entry, KNOWN, P } from './price.js';

export const geminiModels: Entry[] = [
  {
    id: 'gemini/gemini-2.5-pro',
    price: P(1.25, 10),
    label: 'Gemini 2.5 Pro',
    contextWindow: 1_048_576,
    maxOutput: 65_536,
    tools: true,
    tier: 'frontier',
    description: "Google's strongest thinking model, 1M-token window",
    fallback: 'openai/gpt-4.1',
  },
  {
    id: 'gemini/gemini-2.5-flash',
    price: P(0.3, 2.5, {}, KNOWN),
    label: 'Gemini 2.5 Flash',
    contextWindow: 1_048_576,
    maxOutput: 65_536,
    tools: true,
    tier: 'balanced',
    description: 'Fast Gemini with thinking, good price/performance',
    fallback: 'openai/gpt-4.1-mini',
  },
  {
    id: 'gemini/gemini-2.5-flash-lite',
    price: P(0.1, 0.4, {}, KNOWN),
    label: 'Gemini 2.5 Flash-Lite',
    contextWindow: 1_048_576,
    maxOutput: 65_536,
    tools: true,
    tier: 'fast',
    hidden: true,
    description: 'Cheapest Gemini; used for memory consolidation and compaction',
    fallback: 'openai/gpt-4.1-nano',
  },
];
