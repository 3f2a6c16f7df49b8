import { z } from 'zod';
import { ModelPriceSchema } from './model-price.js';

/** One model in the catalog (requirements M2). `id` is `provider/model`; the model part may contain `/`. */
export const CatalogEntrySchema = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+\/.+$/, 'a model id is "provider/model"'),
    label: z.string().min(1),
    provider: z.string().min(1),
    protocol: z.enum(['openai-chat', 'anthropic-messages']),
    /** Where the provider is reached unless the environment or config.json says otherwise. */
    baseURL: z.string().optional(),
    contextWindow: z.number().int().positive(),
    maxOutput: z.number().int().positive(),
    /** Supports tool calling. A model without it gets a warning up front (requirements M1). */
    tools: z.boolean(),
    tier: z.string().min(1),
    description: z.string(),
    /** The model to try when this one cannot answer (requirements M3). */
    fallback: z.string().optional(),
    /** Used internally (memory consolidation, compaction), not listed to the user. */
    hidden: z.boolean().optional(),
    /** False for models that refuse a `temperature` parameter (reasoning models). */
    temperature: z.boolean().optional(),
    /** False for models without vision: a tool's images reach them as one-line notes instead. */
    images: z.boolean().optional(),
    /** US dollars per million tokens (input, output, cache read, cache write) and the day they were checked; absent: cost unknown. */
    price: ModelPriceSchema.optional(),
  })
  .refine((e) => e.id.startsWith(`${e.provider}/`), {
    message: 'the id must start with the provider, e.g. "ollama/qwen3" for provider "ollama"',
    path: ['id'],
  });

export type CatalogEntry = z.infer<typeof CatalogEntrySchema>;

/** Limits assumed for a model the catalog does not know. */
export const DEFAULT_MODEL_LIMITS = { contextWindow: 128_000, maxOutput: 8_192 } as const;
