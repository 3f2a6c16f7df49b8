import type OpenAI from 'openai';
import { loadOnce } from '../base/load-once.js';

/** The OpenAI SDK, loaded with the first embedding: a server without embeddings never loads it here. */
const loadOpenAISdk = loadOnce(async (): Promise<typeof OpenAI> => (await import('openai')).default);

/** Turns texts into vectors. Throws on failure; recall then falls back to BM25 alone. */
export interface EmbeddingsClient {
  /** e.g. `openai/text-embedding-3-small` or `ollama/nomic-embed-text`. */
  readonly id: string;
  embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]>;
}

export interface OpenAIEmbeddingsOptions {
  id: string;
  model: string;
  /** An OpenAI-compatible /v1 base (OpenAI, Ollama's `http://host:11434/v1`, llama.cpp's server). */
  baseURL?: string;
  apiKey?: string;
  /** Requested dimensions (only models that support it). */
  dimensions?: number;
  /** Texts per request (default 64). */
  batchSize?: number;
  timeoutMs?: number;
}

/** An EmbeddingsClient over an OpenAI-compatible /v1/embeddings endpoint, via the official SDK. */
export function createOpenAIEmbeddings(options: OpenAIEmbeddingsOptions): EmbeddingsClient {
  // The SDK loads with the first embedding; the client is made once.
  let made: Promise<OpenAI> | undefined;
  const clientOf = (): Promise<OpenAI> =>
    (made ??= loadOpenAISdk().then(
      (Sdk) =>
        new Sdk({
          apiKey: options.apiKey || 'no-key-needed',
          maxRetries: 1,
          timeout: options.timeoutMs ?? 15_000,
          ...(options.baseURL ? { baseURL: options.baseURL } : {}),
        }),
      (error: unknown) => {
        made = undefined;
        throw error;
      },
    ));
  const batch = Math.max(1, options.batchSize ?? 64);
  return {
    id: options.id,
    async embed(texts, signal) {
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += batch) {
        const input = texts.slice(i, i + batch);
        const res = await (await clientOf()).embeddings.create(
          {
            model: options.model,
            input,
            // Explicit floats: Ollama and llama.cpp do not all speak the SDK's base64 default.
            encoding_format: 'float',
            ...(options.dimensions ? { dimensions: options.dimensions } : {}),
          },
          signal ? { signal } : {},
        );
        const rows = [...res.data].sort((a, b) => a.index - b.index);
        if (rows.length !== input.length) throw new Error(`${options.id} returned ${rows.length} embeddings for ${input.length} texts`);
        for (const row of rows) out.push(Array.from(row.embedding as number[]));
      }
      return out;
    },
  };
}
