import { createOpenAIEmbeddings, type EmbeddingsClient } from '@tandem/ai';
import type { ServerSettings } from '../config/server-settings.js';

/**
 * The embeddings client config.json asks for, or undefined (recall is then BM25 alone). The key
 * comes from the environment variable `apiKeyEnv` names, so no secret sits in config.json.
 */
export function embeddingsFrom(settings: ServerSettings, env: NodeJS.ProcessEnv): EmbeddingsClient | undefined {
  const config = settings.embeddings;
  if (!config) return undefined;
  const apiKey = config.apiKeyEnv ? env[config.apiKeyEnv] : undefined;
  return createOpenAIEmbeddings({
    id: `embeddings/${config.model}`,
    model: config.model,
    ...(config.baseURL ? { baseURL: config.baseURL } : {}),
    ...(apiKey ? { apiKey } : {}),
    ...(config.dimensions ? { dimensions: config.dimensions } : {}),
  });
}
