import type { CatalogEntry } from './catalog-entry.js';

/**
 * The built-in model catalog. Limits are the providers' published figures; `fallback` links
 * form chains that cross providers (and protocols) so one provider's outage is survivable.
 * config.json `models` entries extend or replace these.
 */
type Entry = Omit<CatalogEntry, 'provider' | 'protocol'>;

/**
 * Prices in US dollars per million tokens. CHECKED: compared on that day with the providers'
 * published price lists (the copies this project could read then); KNOWN: the providers'
 * published prices as of that day, not checked again since. A model whose price is unsure has
 * none (its cost shows as unknown). Cache prices: Anthropic's 5-minute cache write and cache
 * read; OpenAI's cached input (writing its automatic cache costs nothing extra); a provider that
 * discounts cached tokens by an amount not known here has no cache price (cached tokens are then
 * counted at the input price, an upper bound).
 */
const CHECKED = '2026-12-05';
const KNOWN = '2025-10-01';

function P(input: number, output: number, cache: { cacheRead?: number; cacheWrite?: number } = {}, checked = CHECKED): NonNullable<CatalogEntry['price']> {
  return { input, output, ...cache, checked };
}

/** A model on the user's own machine costs no money per token. */
const LOCAL = P(0, 0);

const openai: Entry[] = [
  {
    id: 'openai/gpt-5',
    price: P(1.25, 10, { cacheRead: 0.125 }),
    label: 'GPT-5',
    contextWindow: 400_000,
    maxOutput: 128_000,
    tools: true,
    tier: 'frontier',
    temperature: false,
    description: 'OpenAI flagship reasoning model for coding and agentic work',
    fallback: 'anthropic/claude-sonnet-4-5',
  },
  {
    id: 'openai/gpt-5-mini',
    price: P(0.25, 2, { cacheRead: 0.025 }),
    label: 'GPT-5 mini',
    contextWindow: 400_000,
    maxOutput: 128_000,
    tools: true,
    tier: 'balanced',
    temperature: false,
    description: 'Smaller, cheaper GPT-5 reasoning model',
    fallback: 'openai/gpt-4.1-mini',
  },
  {
    id: 'openai/gpt-4.1',
    price: P(2, 8, { cacheRead: 0.5 }),
    label: 'GPT-4.1',
    contextWindow: 1_047_576,
    maxOutput: 32_768,
    tools: true,
    tier: 'frontier',
    description: 'Strong non-reasoning coding model with a 1M-token window',
    fallback: 'anthropic/claude-sonnet-4-5',
  },
  {
    id: 'openai/gpt-4.1-mini',
    price: P(0.4, 1.6, { cacheRead: 0.1 }),
    label: 'GPT-4.1 mini',
    contextWindow: 1_047_576,
    maxOutput: 32_768,
    tools: true,
    tier: 'balanced',
    description: 'Fast, inexpensive GPT-4.1 with a 1M-token window',
    fallback: 'anthropic/claude-haiku-4-5',
  },
  {
    id: 'openai/gpt-4o',
    price: P(2.5, 10, { cacheRead: 1.25 }),
    label: 'GPT-4o',
    contextWindow: 128_000,
    maxOutput: 16_384,
    tools: true,
    tier: 'balanced',
    description: 'Previous-generation multimodal model',
    fallback: 'openai/gpt-4.1',
  },
  {
    id: 'openai/gpt-4o-mini',
    price: P(0.15, 0.6, { cacheRead: 0.075 }),
    label: 'GPT-4o mini',
    contextWindow: 128_000,
    maxOutput: 16_384,
    tools: true,
    tier: 'fast',
    description: 'Small, very cheap model for simple tasks',
    fallback: 'gemini/gemini-2.5-flash',
  },
  {
    id: 'openai/o4-mini',
    price: P(1.1, 4.4, { cacheRead: 0.275 }),
    label: 'o4-mini',
    contextWindow: 200_000,
    maxOutput: 100_000,
    tools: true,
    tier: 'reasoning',
    temperature: false,
    description: 'Compact reasoning model, good at maths and code',
    fallback: 'openai/gpt-4.1',
  },
  {
    id: 'openai/o3',
    price: P(2, 8, { cacheRead: 0.5 }),
    label: 'o3',
    contextWindow: 200_000,
    maxOutput: 100_000,
    tools: true,
    tier: 'reasoning',
    temperature: false,
    description: 'Deliberate reasoning model for hard problems',
    fallback: 'openai/o4-mini',
  },
  {
    id: 'openai/gpt-4.1-nano',
    price: P(0.1, 0.4, { cacheRead: 0.025 }),
    label: 'GPT-4.1 nano',
    contextWindow: 1_047_576,
    maxOutput: 32_768,
    tools: true,
    tier: 'fast',
    hidden: true,
    description: 'Cheapest GPT-4.1; used for memory consolidation and compaction',
    fallback: 'anthropic/claude-haiku-4-5',
  },
];

const anthropic: Entry[] = [
  {
    id: 'anthropic/claude-sonnet-4-5',
    price: P(3, 15, { cacheRead: 0.3, cacheWrite: 3.75 }),
    label: 'Claude Sonnet 4.5',
    contextWindow: 200_000,
    maxOutput: 64_000,
    tools: true,
    tier: 'frontier',
    description: 'Anthropic model tuned for coding and long agentic runs',
    fallback: 'openai/gpt-4.1',
  },
  {
    id: 'anthropic/claude-opus-4-1',
    price: P(15, 75, { cacheRead: 1.5, cacheWrite: 18.75 }),
    label: 'Claude Opus 4.1',
    contextWindow: 200_000,
    maxOutput: 32_000,
    tools: true,
    tier: 'frontier',
    description: "Anthropic's most capable model for complex work",
    fallback: 'anthropic/claude-sonnet-4-5',
  },
  {
    id: 'anthropic/claude-sonnet-4-0',
    price: P(3, 15, { cacheRead: 0.3, cacheWrite: 3.75 }),
    label: 'Claude Sonnet 4',
    contextWindow: 200_000,
    maxOutput: 64_000,
    tools: true,
    tier: 'balanced',
    description: 'Previous Sonnet generation',
    fallback: 'anthropic/claude-sonnet-4-5',
  },
  {
    id: 'anthropic/claude-haiku-4-5',
    price: P(1, 5, { cacheRead: 0.1, cacheWrite: 1.25 }),
    label: 'Claude Haiku 4.5',
    contextWindow: 200_000,
    maxOutput: 64_000,
    tools: true,
    tier: 'fast',
    description: 'Fast, inexpensive Claude; also in the memory chain',
    fallback: 'gemini/gemini-2.5-flash-lite',
  },
  {
    id: 'anthropic/claude-3-5-haiku-latest',
    price: P(0.8, 4, { cacheRead: 0.08, cacheWrite: 1 }),
    label: 'Claude Haiku 3.5',
    contextWindow: 200_000,
    maxOutput: 8_192,
    tools: true,
    tier: 'fast',
    hidden: true,
    description: 'Older small Claude, kept for compaction fallbacks',
    fallback: 'openai/gpt-4.1-nano',
  },
];

const gemini: Entry[] = [
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

const groq: Entry[] = [
  {
    id: 'groq/llama-3.3-70b-versatile',
    price: P(0.59, 0.79, {}, KNOWN),
    label: 'Llama 3.3 70B (Groq)',
    contextWindow: 131_072,
    maxOutput: 32_768,
    tools: true,
    tier: 'fast',
    description: 'Meta Llama 3.3 70B on Groq hardware, very low latency',
    fallback: 'groq/openai/gpt-oss-120b',
    images: false,
  },
  {
    id: 'groq/openai/gpt-oss-120b',
    price: P(0.15, 0.75, {}, KNOWN),
    label: 'gpt-oss-120b (Groq)',
    contextWindow: 131_072,
    maxOutput: 65_536,
    tools: true,
    tier: 'balanced',
    description: 'OpenAI open-weight reasoning model served by Groq',
    fallback: 'openai/gpt-4.1-mini',
    images: false,
  },
  {
    id: 'groq/moonshotai/kimi-k2-instruct-0905',
    price: P(1, 3, {}, KNOWN),
    label: 'Kimi K2 (Groq)',
    contextWindow: 262_144,
    maxOutput: 16_384,
    tools: true,
    tier: 'balanced',
    description: 'Moonshot Kimi K2, strong at tool use, served by Groq',
    fallback: 'groq/openai/gpt-oss-120b',
    images: false,
  },
  {
    id: 'groq/llama-3.1-8b-instant',
    price: P(0.05, 0.08, {}, KNOWN),
    label: 'Llama 3.1 8B (Groq)',
    contextWindow: 131_072,
    maxOutput: 131_072,
    tools: true,
    tier: 'fast',
    hidden: true,
    description: 'Tiny, instant model for cheap background work',
    images: false,
  },
];

const openrouter: Entry[] = [
  {
    id: 'openrouter/anthropic/claude-sonnet-4.5',
    price: P(3, 15, { cacheRead: 0.3, cacheWrite: 3.75 }),
    label: 'Claude Sonnet 4.5 (OpenRouter)',
    contextWindow: 1_000_000,
    maxOutput: 64_000,
    tools: true,
    tier: 'frontier',
    description: 'Claude Sonnet 4.5 through OpenRouter',
    fallback: 'openrouter/openai/gpt-4.1',
  },
  {
    id: 'openrouter/openai/gpt-4.1',
    price: P(2, 8, { cacheRead: 0.5 }),
    label: 'GPT-4.1 (OpenRouter)',
    contextWindow: 1_047_576,
    maxOutput: 32_768,
    tools: true,
    tier: 'frontier',
    description: 'GPT-4.1 through OpenRouter',
    fallback: 'openrouter/google/gemini-2.5-pro',
  },
  {
    id: 'openrouter/google/gemini-2.5-pro',
    price: P(1.25, 10),
    label: 'Gemini 2.5 Pro (OpenRouter)',
    contextWindow: 1_048_576,
    maxOutput: 65_536,
    tools: true,
    tier: 'frontier',
    description: 'Gemini 2.5 Pro through OpenRouter',
  },
  {
    id: 'openrouter/deepseek/deepseek-chat-v3.1',
    label: 'DeepSeek V3.1 (OpenRouter)',
    contextWindow: 163_840,
    maxOutput: 32_768,
    tools: true,
    tier: 'balanced',
    description: 'DeepSeek V3.1 through OpenRouter',
    fallback: 'openrouter/openai/gpt-4.1',
    images: false,
  },
  {
    id: 'openrouter/qwen/qwen3-coder',
    label: 'Qwen3 Coder (OpenRouter)',
    contextWindow: 262_144,
    maxOutput: 65_536,
    tools: true,
    tier: 'balanced',
    description: 'Qwen3 Coder 480B through OpenRouter',
    fallback: 'openrouter/openai/gpt-4.1',
    images: false,
  },
];

const xai: Entry[] = [
  {
    id: 'xai/grok-4',
    price: P(3, 15, { cacheRead: 0.75 }, KNOWN),
    label: 'Grok 4',
    contextWindow: 256_000,
    maxOutput: 64_000,
    tools: true,
    tier: 'frontier',
    description: 'xAI flagship reasoning model',
    fallback: 'xai/grok-4-fast-reasoning',
  },
  {
    id: 'xai/grok-4-fast-reasoning',
    price: P(0.2, 0.5, { cacheRead: 0.05 }, KNOWN),
    label: 'Grok 4 Fast',
    contextWindow: 2_000_000,
    maxOutput: 30_000,
    tools: true,
    tier: 'balanced',
    description: 'Cheaper, faster Grok 4 with a 2M-token window',
    fallback: 'openai/gpt-4.1',
  },
  {
    id: 'xai/grok-code-fast-1',
    price: P(0.2, 1.5, { cacheRead: 0.02 }, KNOWN),
    label: 'Grok Code Fast',
    contextWindow: 256_000,
    maxOutput: 10_000,
    tools: true,
    tier: 'fast',
    description: 'xAI model built for agentic coding',
    fallback: 'xai/grok-4-fast-reasoning',
    images: false,
  },
  {
    id: 'xai/grok-3-mini',
    price: P(0.3, 0.5, { cacheRead: 0.075 }, KNOWN),
    label: 'Grok 3 mini',
    contextWindow: 131_072,
    maxOutput: 16_384,
    tools: true,
    tier: 'fast',
    description: 'Small Grok reasoning model',
    images: false,
  },
];

const local: Entry[] = [
  {
    id: 'ollama/qwen2.5-coder',
    price: LOCAL,
    label: 'Qwen2.5 Coder (Ollama)',
    contextWindow: 32_768,
    maxOutput: 8_192,
    tools: true,
    tier: 'local',
    description: 'Local coding model; window read from the Ollama server',
    images: false,
  },
  {
    id: 'ollama/llama3.1',
    price: LOCAL,
    label: 'Llama 3.1 (Ollama)',
    contextWindow: 131_072,
    maxOutput: 8_192,
    tools: true,
    tier: 'local',
    description: 'Local general model; window read from the Ollama server',
    images: false,
  },
  {
    id: 'ollama/gpt-oss',
    price: LOCAL,
    label: 'gpt-oss 20B (Ollama)',
    contextWindow: 131_072,
    maxOutput: 32_768,
    tools: true,
    tier: 'local',
    description: 'OpenAI open-weight model run locally',
    images: false,
  },
  {
    id: 'ollama/gemma3',
    price: LOCAL,
    label: 'Gemma 3 (Ollama)',
    contextWindow: 131_072,
    maxOutput: 8_192,
    tools: false,
    tier: 'local',
    description: 'Local Gemma 3; cannot call tools, chat only',
  },
  {
    id: 'llamacpp/local',
    price: LOCAL,
    label: 'llama.cpp server',
    contextWindow: 8_192,
    maxOutput: 4_096,
    tools: true,
    tier: 'local',
    description: 'Whatever model the local llama.cpp server runs; window read from /props',
  },
];

function ofProvider(entries: Entry[], provider: string, protocol: CatalogEntry['protocol']): CatalogEntry[] {
  return entries.map((e) => ({ ...e, provider, protocol }));
}

export const BUILTIN_CATALOG: readonly CatalogEntry[] = [
  ...ofProvider(openai, 'openai', 'openai-chat'),
  ...ofProvider(anthropic, 'anthropic', 'anthropic-messages'),
  ...ofProvider(gemini, 'gemini', 'openai-chat'),
  ...ofProvider(groq, 'groq', 'openai-chat'),
  ...ofProvider(openrouter, 'openrouter', 'openai-chat'),
  ...ofProvider(xai, 'xai', 'openai-chat'),
  ...ofProvider(
    local.filter((e) => e.id.startsWith('ollama/')),
    'ollama',
    'openai-chat',
  ),
  ...ofProvider(
    local.filter((e) => e.id.startsWith('llamacpp/')),
    'llamacpp',
    'openai-chat',
  ),
];

/** The memory consolidation / compaction chain unless config or TANDEM_MEMORY_MODELS says otherwise (requirements H2). */
export const DEFAULT_MEMORY_MODELS: readonly string[] = ['openai/gpt-4.1-nano', 'anthropic/claude-haiku-4-5', 'gemini/gemini-2.5-flash-lite'];
