import { z } from 'zod';
import { DEFAULT_MODEL_LIMITS, type CatalogEntry } from './catalog-entry.js';
import { findProvider } from './registry.js';
import type { WireProtocol } from './types.js';

/**
 * Providers of one's own (config.json `providers.NAME` with `api` and `baseURL`): any endpoint
 * that speaks the OpenAI or Anthropic wire format (LM Studio, vLLM, DeepSeek, a company
 * gateway) under a name of the user's choosing, usable as `NAME/MODEL` wherever a model is.
 */

/** Dollars per million tokens, passed through to the catalog (what `/cost` prices with). */
export const CustomPriceSchema = z.object({
  input: z.number().min(0),
  output: z.number().min(0),
  cacheRead: z.number().min(0).optional(),
  cacheWrite: z.number().min(0).optional(),
  /** The day the figures were checked (YYYY-MM-DD); optional for one's own prices. */
  checked: z.string().optional(),
});

/** One model a provider of one's own offers; `id` is the provider's own name for it. */
export const CustomModelSchema = z.object({
  id: z.string().trim().min(1, 'a model needs its id, as the endpoint names it'),
  label: z.string().min(1).optional(),
  contextWindow: z.number().int().positive().optional(),
  maxOutput: z.number().int().positive().optional(),
  /** False for a model that cannot call tools (it gets the usual warning). Default true. */
  tools: z.boolean().optional(),
  /** The model to try when this one cannot answer (`provider/model`), as catalog entries have. */
  fallback: z.string().optional(),
  price: CustomPriceSchema.optional(),
});
export type CustomModel = z.infer<typeof CustomModelSchema>;

/** The wire format a provider of one's own speaks: `openai` (chat completions) or `anthropic` (messages). */
export const CustomApiSchema = z.enum(['openai', 'anthropic']);

/** A provider's name as model ids use it: lowercase letters, digits and `-`. */
export const PROVIDER_NAME = /^[a-z0-9][a-z0-9-]*$/;

interface ProviderLike {
  api?: 'openai' | 'anthropic' | undefined;
  baseURL?: string | undefined;
  models?: CustomModel[] | undefined;
}

/** Whether `name` is a provider of one's own in this config (not a built-in one, and given a base URL). */
export function isCustomProvider(name: string, providers: Record<string, ProviderLike> | undefined): boolean {
  return !findProvider(name) && Boolean(providers?.[name]?.baseURL);
}

/** The wire protocol of a provider of one's own (`openai` when `api` is not said), else undefined. */
export function customProtocol(name: string, providers: Record<string, ProviderLike> | undefined): WireProtocol | undefined {
  if (!isCustomProvider(name, providers)) return undefined;
  return providers?.[name]?.api === 'anthropic' ? 'anthropic-messages' : 'openai-chat';
}

/**
 * Catalog entries for the models config.json lists under providers (one's own, and extra models
 * of a built-in provider): id `NAME/MODEL`, the provider's wire format, the limits given (default
 * ones otherwise) and the price as given.
 */
export function customModelEntries(providers: Record<string, ProviderLike> | undefined): CatalogEntry[] {
  const out: CatalogEntry[] = [];
  for (const [name, settings] of Object.entries(providers ?? {})) {
    const builtin = findProvider(name);
    const protocol = builtin?.protocol ?? customProtocol(name, providers);
    if (!protocol) continue;
    for (const model of settings.models ?? []) {
      const own = model.id.startsWith(`${name}/`) ? model.id.slice(name.length + 1) : model.id;
      const entry = {
        id: `${name}/${own}`,
        label: model.label ?? own,
        provider: name,
        protocol,
        contextWindow: model.contextWindow ?? DEFAULT_MODEL_LIMITS.contextWindow,
        maxOutput: Math.min(model.maxOutput ?? DEFAULT_MODEL_LIMITS.maxOutput, model.contextWindow ?? Number.POSITIVE_INFINITY),
        tools: model.tools ?? true,
        tier: 'custom',
        ...(model.fallback ? { fallback: model.fallback } : {}),
        description: builtin ? `listed in config.json under providers.${name}` : `your provider ${name} (config.json)`,
        // The price is data the catalog carries as given (cost accounting reads it).
        ...(model.price ? { price: model.price } : {}),
      };
      out.push(entry as CatalogEntry);
    }
  }
  return out;
}
