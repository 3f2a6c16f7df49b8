import { z } from 'zod';
import { CatalogEntrySchema } from './catalog-entry.js';
import { CustomApiSchema, CustomModelSchema, PROVIDER_NAME } from './custom-providers.js';
import { findProvider } from './registry.js';

/** What `config.json` may say about providers and models. Every field is optional. */
export const ProviderSettingsSchema = z.object({
  /** Keys tried in order, after the ones in the provider's environment variable. */
  apiKeys: z.array(z.string().min(1)).optional(),
  baseURL: z.string().url().optional(),
  /** Extra HTTP headers sent with every request (e.g. OpenRouter's HTTP-Referer). */
  headers: z.record(z.string(), z.string()).optional(),
  /** Requests per minute allowed per key, shared by all sessions. */
  requestsPerMinute: z.number().positive().optional(),
  /** A provider of one's own: the wire format its endpoint speaks (`openai`, the default, or `anthropic`). */
  api: CustomApiSchema.optional(),
  /** A provider of one's own: the environment variable holding its key (or a comma-separated list of keys). */
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the name of an environment variable, e.g. DEEPSEEK_API_KEY')
    .optional(),
  /** Models this provider offers, listed by `tandem models` and `/model` (any other id still works, with default limits). */
  models: z.array(CustomModelSchema).optional(),
  /**
   * Send `prompt_cache_key` (the session id) with a session's requests, so the provider keeps them
   * on one prompt cache. Default: on for OpenAI, off for every other provider (some refuse
   * fields they do not know). OpenAI-format providers only.
   */
  promptCacheKey: z.boolean().optional(),
});
export type ProviderSettings = z.infer<typeof ProviderSettingsSchema>;

export const ProvidersConfigSchema = z.object({
  providers: z
    .record(z.string(), ProviderSettingsSchema)
    .superRefine((providers, ctx) => {
      // A name that is no built-in provider is one of one's own: it needs a name a model id can
      // carry and an endpoint; a built-in one keeps its own wire format.
      for (const [name, settings] of Object.entries(providers)) {
        const builtin = findProvider(name);
        if (builtin) {
          const own = settings.api === 'anthropic' ? 'anthropic-messages' : settings.api === 'openai' ? 'openai-chat' : undefined;
          if (own && own !== builtin.protocol)
            ctx.addIssue({
              code: 'custom',
              path: [name, 'api'],
              message: `${name} is built in and speaks its own format; leave api out, or give your provider another name`,
            });
          continue;
        }
        if (!PROVIDER_NAME.test(name))
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: 'a provider of your own needs a name of lowercase letters, digits and - (it starts model ids: NAME/MODEL)',
          });
        else if (!settings.baseURL)
          ctx.addIssue({
            code: 'custom',
            path: [name, 'baseURL'],
            message: `${name} is not a built-in provider, so it needs baseURL (its endpoint) and api ("openai" or "anthropic")`,
          });
      }
    })
    .optional(),
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
