import type { CatalogEntry } from './catalog-entry.js';
import { anthropicModels } from './catalog/anthropic.js';
import { geminiModels } from './catalog/gemini.js';
import { groqModels } from './catalog/groq.js';
import { localModels } from './catalog/local.js';
import { openaiModels } from './catalog/openai.js';
import { openrouterModels } from './catalog/openrouter.js';
import type { Entry } from './catalog/price.js';
import { xaiModels } from './catalog/xai.js';

/**
 * The built-in model catalog, one file per provider under `catalog/` (prices and their dates in
 * `catalog/price.ts`). Limits are the providers' published figures; `fallback` links form chains
 * that cross providers (and protocols) so one provider's outage is survivable. config.json
 * `models` entries extend or replace these.
 */
function ofProvider(entries: Entry[], provider: string, protocol: CatalogEntry['protocol']): CatalogEntry[] {
  return entries.map((e) => ({ ...e, provider, protocol }));
}

export const BUILTIN_CATALOG: readonly CatalogEntry[] = [
  ...ofProvider(openaiModels, 'openai', 'openai-chat'),
  ...ofProvider(anthropicModels, 'anthropic', 'anthropic-messages'),
  ...ofProvider(geminiModels, 'gemini', 'openai-chat'),
  ...ofProvider(groqModels, 'groq', 'openai-chat'),
  ...ofProvider(openrouterModels, 'openrouter', 'openai-chat'),
  ...ofProvider(xaiModels, 'xai', 'openai-chat'),
  ...ofProvider(
    localModels.filter((e) => e.id.startsWith('ollama/')),
    'ollama',
    'openai-chat',
  ),
  ...ofProvider(
    localModels.filter((e) => e.id.startsWith('llamacpp/')),
    'llamacpp',
    'openai-chat',
  ),
];

/** The memory consolidation / compaction chain unless config or TANDEM_MEMORY_MODELS says otherwise (requirements H2). */
export const DEFAULT_MEMORY_MODELS: readonly string[] = ['openai/gpt-4.1-nano', 'anthropic/claude-haiku-4-5', 'gemini/gemini-2.5-flash-lite'];
