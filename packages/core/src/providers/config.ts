import { z } from 'zod';
import { CatalogEntrySchema } from './catalog-entry.js';

/** What `config.json` may say about providers and models. Every field is optional. */
export const ProviderSettingsSchema = z.object({
  /** Keys tried in order, after the ones in the provider's environment variable. */
  apiKeys: z.array(z.string().min(1)).optional(),
  baseURL: z.string().url().optional(),
  /** Extra HTTP headers sent with every request (e.g. OpenRouter's HTTP-Referer). */
  headers: z.record(z.string(), z.string()).optional(),
  /** Requests per minute allowed per key, shared by all sessions. */
  requestsPerMinute: z.number().positive().optional(),
  /**
   * Send `prompt_cache_key` (the session id) with a session's requests, so the provider keeps them
   * on one prompt cache. Default: on for OpenAI, off for every other provider (some refuse
   * fields they do not know). OpenAI-format providers only.
   */
  promptCacheKey: z.boolean().optional(),
});
export type ProviderSettings = z.infer<typeof ProviderSettingsSchema>;

export const ProvidersConfigSchema = z.object({
  providers: z.record(z.string(), ProviderSettingsSchema).optional(),
  /** Added to the catalog; an entry with a known id replaces that model's entry. */
  models: z.array(CatalogEntrySchema).optional(),
  /** The memory consolidation chain, first choice first. */
  memoryModels: z.array(z.string()).optional(),
  /**
   * How long a key that hit a rate limit or an account error is set aside (default 10 minutes),
   * only when another key or model can answer meanwhile; a lone key is never set aside for a rate limit.
   */
  keyCooldownMs: z.number().int().min(0).max(86_400_000).optional(),
});
export type ProvidersConfig = z.infer<typeof ProvidersConfigSchema>;

export type ParsedProvidersConfig = { ok: true; config: ProvidersConfig } | { ok: false; message: string };

/**
 * Validates the providers part of `config.json`. Bad input is reported as one readable message
 * naming the offending field, never thrown.
 */
export function parseProvidersConfig(input: unknown): ParsedProvidersConfig {
  const result = ProvidersConfigSchema.safeParse(input ?? {});
  if (result.success) return { ok: true, config: result.data };
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'config';
  return { ok: false, message: `config.json: ${where}: ${issue?.message ?? 'invalid'}; fix or remove that field` };
}
