import type { CatalogEntry } from './catalog-entry.js';

/**
 * The built-in model catalog. Limits are the providers' published figures; `fallback` links
 * form chains that cross providers (and protocols) so one provider's outage is survivable.
 * config.json `models` entries extend or replace these.
 */
type Entry = Omit<CatalogEntry, 'provider' | 'protocol'>;

const openai: Entry[] = [
  { id: 'openai/gpt-5', label: 'GPT-5', contextWindow: 400_000, maxOutput: 128_000, tools: true, tier: 'frontier', temperature: false, description: 'OpenAI flagship reasoning model for coding and agentic work', fallback: 'anthropic/claude-sonnet-4-5' },
  { id: 'openai/gpt-5-mini', label: 'GPT-5 mini', contextWindow: 400_000, maxOutput: 128_000, tools: true, tier: 'balanced', temperature: false, description: 'Smaller, cheaper GPT-5 reasoning model', fallback: 'openai/gpt-4.1-mini' },
  { id: 'openai/gpt-4.1', label: 'GPT-4.1', contextWindow: 1_047_576, maxOutput: 32_768, tools: true, tier: 'frontier', description: 'Strong non-reasoning coding model with a 1M-token window', fallback: 'anthropic/claude-sonnet-4-5' },
  { id: 'openai/gpt-4.1-mini', label: 'GPT-4.1 mini', contextWindow: 1_047_576, maxOutput: 32_768, tools: true, tier: 'balanced', description: 'Fast, inexpensive GPT-4.1 with a 1M-token window', fallback: 'anthropic/claude-haiku-4-5' },
  { id: 'openai/gpt-4o', label: 'GPT-4o', contextWindow: 128_000, maxOutput: 16_384, tools: true, tier: 'balanced', description: 'Previous-generation multimodal model', fallback: 'openai/gpt-4.1' },
  { id: 'openai/gpt-4o-mini', label: 'GPT-4o mini', contextWindow: 128_000, maxOutput: 16_384, tools: true, tier: 'fast', description: 'Small, very cheap model for simple tasks', fallback: 'gemini/gemini-2.5-flash' },
  { id: 'openai/o4-mini', label: 'o4-mini', contextWindow: 200_000, maxOutput: 100_000, tools: true, tier: 'reasoning', temperature: false, description: 'Compact reasoning model, good at maths and code', fallback: 'openai/gpt-4.1' },
  { id: 'openai/o3', label: 'o3', contextWindow: 200_000, maxOutput: 100_000, tools: true, tier: 'reasoning', temperature: false, description: 'Deliberate reasoning model for hard problems', fallback: 'openai/o4-mini' },
  { id: 'openai/gpt-4.1-nano', label: 'GPT-4.1 nano', contextWindow: 1_047_576, maxOutput: 32_768, tools: true, tier: 'fast', hidden: true, description: 'Cheapest GPT-4.1; used for memory consolidation and compaction', fallback: 'anthropic/claude-haiku-4-5' },
];

const anthropic: Entry[] = [
  { id: 'anthropic/claude-sonnet-4-5', label: 'Claude Sonnet 4.5', contextWindow: 200_000, maxOutput: 64_000, tools: true, tier: 'frontier', description: 'Anthropic model tuned for coding and long agentic runs', fallback: 'openai/gpt-4.1' },
  { id: 'anthropic/claude-opus-4-1', label: 'Claude Opus 4.1', contextWindow: 200_000, maxOutput: 32_000, tools: true, tier: 'frontier', description: 'Anthropic\'s most capable model for complex work', fallback: 'anthropic/claude-sonnet-4-5' },
  { id: 'anthropic/claude-sonnet-4-0', label: 'Claude Sonnet 4', contextWindow: 200_000, maxOutput: 64_000, tools: true, tier: 'balanced', description: 'Previous Sonnet generation', fallback: 'anthropic/claude-sonnet-4-5' },
  { id: 'anthropic/claude-haiku-4-5', label: 'Claude Haiku 4.5', contextWindow: 200_000, maxOutput: 64_000, tools: true, tier: 'fast', description: 'Fast, inexpensive Claude; also in the memory chain', fallback: 'gemini/gemini-2.5-flash-lite' },
  { id: 'anthropic/claude-3-5-haiku-latest', label: 'Claude Haiku 3.5', contextWindow: 200_000, maxOutput: 8_192, tools: true, tier: 'fast', hidden: true, description: 'Older small Claude, kept for compaction fallbacks', fallback: 'openai/gpt-4.1-nano' },
];

const gemini: Entry[] = [
  { id: 'gemini/gemini-2.5-pro', label: 'Gemini 2.5 Pro', contextWindow: 1_048_576, maxOutput: 65_536, tools: true, tier: 'frontier', description: 'Google\'s strongest thinking model, 1M-token window', fallback: 'openai/gpt-4.1' },
  { id: 'gemini/gemini-2.5-flash', label: 'Gemini 2.5 Flash', contextWindow: 1_048_576, maxOutput: 65_536, tools: true, tier: 'balanced', description: 'Fast Gemini with thinking, good price/performance', fallback: 'openai/gpt-4.1-mini' },
  { id: 'gemini/gemini-2.5-flash-lite', label: 'Gemini 2.5 Flash-Lite', contextWindow: 1_048_576, maxOutput: 65_536, tools: true, tier: 'fast', hidden: true, description: 'Cheapest Gemini; used for memory consolidation and compaction', fallback: 'openai/gpt-4.1-nano' },
];

const groq: Entry[] = [
  { id: 'groq/llama-3.3-70b-versatile', label: 'Llama 3.3 70B (Groq)', contextWindow: 131_072, maxOutput: 32_768, tools: true, tier: 'fast', description: 'Meta Llama 3.3 70B on Groq hardware, very low latency', fallback: 'groq/openai/gpt-oss-120b' },
  { id: 'groq/openai/gpt-oss-120b', label: 'gpt-oss-120b (Groq)', contextWindow: 131_072, maxOutput: 65_536, tools: true, tier: 'balanced', description: 'OpenAI open-weight reasoning model served by Groq', fallback: 'openai/gpt-4.1-mini' },
  { id: 'groq/moonshotai/kimi-k2-instruct-0905', label: 'Kimi K2 (Groq)', contextWindow: 262_144, maxOutput: 16_384, tools: true, tier: 'balanced', description: 'Moonshot Kimi K2, strong at tool use, served by Groq', fallback: 'groq/openai/gpt-oss-120b' },
  { id: 'groq/llama-3.1-8b-instant', label: 'Llama 3.1 8B (Groq)', contextWindow: 131_072, maxOutput: 131_072, tools: true, tier: 'fast', hidden: true, description: 'Tiny, instant model for cheap background work' },
];

const openrouter: Entry[] = [
  { id: 'openrouter/anthropic/claude-sonnet-4.5', label: 'Claude Sonnet 4.5 (OpenRouter)', contextWindow: 1_000_000, maxOutput: 64_000, tools: true, tier: 'frontier', description: 'Claude Sonnet 4.5 through OpenRouter', fallback: 'openrouter/openai/gpt-4.1' },
  { id: 'openrouter/openai/gpt-4.1', label: 'GPT-4.1 (OpenRouter)', contextWindow: 1_047_576, maxOutput: 32_768, tools: true, tier: 'frontier', description: 'GPT-4.1 through OpenRouter', fallback: 'openrouter/google/gemini-2.5-pro' },
  { id: 'openrouter/google/gemini-2.5-pro', label: 'Gemini 2.5 Pro (OpenRouter)', contextWindow: 1_048_576, maxOutput: 65_536, tools: true, tier: 'frontier', description: 'Gemini 2.5 Pro through OpenRouter' },
  { id: 'openrouter/deepseek/deepseek-chat-v3.1', label: 'DeepSeek V3.1 (OpenRouter)', contextWindow: 163_840, maxOutput: 32_768, tools: true, tier: 'balanced', description: 'DeepSeek V3.1 through OpenRouter', fallback: 'openrouter/openai/gpt-4.1' },
  { id: 'openrouter/qwen/qwen3-coder', label: 'Qwen3 Coder (OpenRouter)', contextWindow: 262_144, maxOutput: 65_536, tools: true, tier: 'balanced', description: 'Qwen3 Coder 480B through OpenRouter', fallback: 'openrouter/openai/gpt-4.1' },
];

const xai: Entry[] = [
  { id: 'xai/grok-4', label: 'Grok 4', contextWindow: 256_000, maxOutput: 64_000, tools: true, tier: 'frontier', description: 'xAI flagship reasoning model', fallback: 'xai/grok-4-fast-reasoning' },
  { id: 'xai/grok-4-fast-reasoning', label: 'Grok 4 Fast', contextWindow: 2_000_000, maxOutput: 30_000, tools: true, tier: 'balanced', description: 'Cheaper, faster Grok 4 with a 2M-token window', fallback: 'openai/gpt-4.1' },
  { id: 'xai/grok-code-fast-1', label: 'Grok Code Fast', contextWindow: 256_000, maxOutput: 10_000, tools: true, tier: 'fast', description: 'xAI model built for agentic coding', fallback: 'xai/grok-4-fast-reasoning' },
  { id: 'xai/grok-3-mini', label: 'Grok 3 mini', contextWindow: 131_072, maxOutput: 16_384, tools: true, tier: 'fast', description: 'Small Grok reasoning model' },
];

const local: Entry[] = [
  { id: 'ollama/qwen2.5-coder', label: 'Qwen2.5 Coder (Ollama)', contextWindow: 32_768, maxOutput: 8_192, tools: true, tier: 'local', description: 'Local coding model; window read from the Ollama server' },
  { id: 'ollama/llama3.1', label: 'Llama 3.1 (Ollama)', contextWindow: 131_072, maxOutput: 8_192, tools: true, tier: 'local', description: 'Local general model; window read from the Ollama server' },
  { id: 'ollama/gpt-oss', label: 'gpt-oss 20B (Ollama)', contextWindow: 131_072, maxOutput: 32_768, tools: true, tier: 'local', description: 'OpenAI open-weight model run locally' },
  { id: 'ollama/gemma3', label: 'Gemma 3 (Ollama)', contextWindow: 131_072, maxOutput: 8_192, tools: false, tier: 'local', description: 'Local Gemma 3; cannot call tools, chat only' },
  { id: 'llamacpp/local', label: 'llama.cpp server', contextWindow: 8_192, maxOutput: 4_096, tools: true, tier: 'local', description: 'Whatever model the local llama.cpp server runs; window read from /props' },
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
  ...ofProvider(local.filter((e) => e.id.startsWith('ollama/')), 'ollama', 'openai-chat'),
  ...ofProvider(local.filter((e) => e.id.startsWith('llamacpp/')), 'llamacpp', 'openai-chat'),
];

/** The memory consolidation / compaction chain unless config or TANDEM_MEMORY_MODELS says otherwise (requirements H2). */
export const DEFAULT_MEMORY_MODELS: readonly string[] = [
  'openai/gpt-4.1-nano',
  'anthropic/claude-haiku-4-5',
  'gemini/gemini-2.5-flash-lite',
];
