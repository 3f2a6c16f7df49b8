import type { ModelClient, WireProtocol } from './types.js';

/** What it takes to build one SDK adapter: one model, one endpoint, one key. */
export interface AdapterOptions {
  /** `provider/model`, used in error messages. */
  id: string;
  /** The provider's own model name. */
  model: string;
  baseURL?: string;
  apiKey: string;
  headers?: Record<string, string>;
  /** The SDK's own retries; the resilient client retries itself, so it passes 0. */
  maxRetries?: number;
  /** False for models that refuse a temperature (OpenAI-compatible adapter only). */
  supportsTemperature?: boolean;
  /** Which field carries the output budget; OpenAI's own API wants max_completion_tokens. */
  maxTokensField?: 'max_completion_tokens' | 'max_tokens';
}

/** Builds the adapter that speaks a protocol. Tests and hosts may pass their own. */
export type AdapterFactory = (protocol: WireProtocol, options: AdapterOptions) => ModelClient;

/** The key sent to servers that take none (the SDKs insist on a non-empty one). */
export const NO_KEY = 'no-key-needed';
