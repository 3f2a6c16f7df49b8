import { httpFetch } from './http-fetch.js';

/** What it takes to build one SDK adapter: one model, one endpoint, one key. */
export interface AdapterOptions {
  /** `provider/model`, e.g. `openai/gpt-4.1-mini` or `anthropic/claude-sonnet-4-5`; used in error messages. */
  id: string;
  /** The provider's own model name, as the API expects it. */
  model: string;
  baseURL?: string;
  apiKey: string;
  headers?: Record<string, string>;
  /** Retries inside the SDK; default 0 because retrying belongs to the resilience layer. */
  maxRetries?: number;
  /** False for models that reject a temperature (e.g. reasoning models). Default true. OpenAI-compatible adapter only. */
  supportsTemperature?: boolean;
  /**
   * Which field carries `maxOutputTokens`: OpenAI's own API wants `max_completion_tokens` (the
   * default), some OpenAI-compatible servers only know `max_tokens`. OpenAI-compatible adapter only.
   */
  maxTokensField?: 'max_completion_tokens' | 'max_tokens';
  /** False for models without vision: a tool's images reach them as one-line notes. Default true. */
  supportsImages?: boolean;
  /**
   * Send `prompt_cache_key` (the request's `cacheKey`, the session id) with a session's requests.
   * Only for providers that accept the field; some reject unknown fields. OpenAI-compatible adapter only.
   */
  promptCacheKey?: boolean;
}

/**
 * What both SDKs hand to `fetch` with every request: a redirect is an error, not followed.
 *
 * To follow a redirect, `fetch` has to be able to send the body again, so it tees every request
 * body and copies each chunk (undici does this for any redirect mode but `error`): a second copy
 * of the whole conversation per request, which the profile showed as one of the larger costs of
 * a step. A model API does not redirect its POSTs; a base URL that does is misconfigured (a 301
 * or 302 would turn the POST into a GET anyway), and the error says so (classify-error.ts).
 */
export const SDK_FETCH_OPTIONS: { readonly redirect: 'error' } = Object.freeze({ redirect: 'error' });

/** The connection settings both SDK constructors take under the same names. */
export function sdkClientSettings(options: AdapterOptions): {
  apiKey: string;
  maxRetries: number;
  fetch: typeof fetch;
  fetchOptions: typeof SDK_FETCH_OPTIONS;
  baseURL?: string;
  defaultHeaders?: Record<string, string>;
} {
  return {
    apiKey: options.apiKey,
    maxRetries: options.maxRetries ?? 0,
    fetch: httpFetch,
    fetchOptions: SDK_FETCH_OPTIONS,
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    ...(options.headers ? { defaultHeaders: options.headers } : {}),
  };
}

/** Who an adapter's errors name: the provider part of `provider/model`, and the model. */
export function errorContext(options: AdapterOptions): { provider: string; model: string } {
  return { provider: options.id.split('/')[0] ?? options.id, model: options.model };
}
