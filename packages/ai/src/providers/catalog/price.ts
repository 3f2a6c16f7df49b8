import type { CatalogEntry } from '../catalog-entry.js';

/** A catalog entry as a provider's file writes it: `provider` and `protocol` are added when the catalog is put together. */
export type Entry = Omit<CatalogEntry, 'provider' | 'protocol'>;

/**
 * Prices in US dollars per million tokens. CHECKED: compared on that day with the providers'
 * published price lists (the copies this project could read then); KNOWN: the providers'
 * published prices as of that day, not checked again since. A model whose price is unsure has
 * none (its cost shows as unknown). Cache prices: Anthropic's 5-minute cache write and cache
 * read; OpenAI's cached input (writing its automatic cache costs nothing extra); a provider that
 * discounts cached tokens by an amount not known here has no cache price (cached tokens are then
 * counted at the input price, an upper bound).
 */
export const CHECKED = '2026-12-05';
export const KNOWN = '2025-10-01';

export function P(
  input: number,
  output: number,
  cache: { cacheRead?: number; cacheWrite?: number } = {},
  checked = CHECKED,
): NonNullable<CatalogEntry['price']> {
  return { input, output, ...cache, checked };
}

/** A model on the user's own machine costs no money per token. */
export const LOCAL = P(0, 0);
