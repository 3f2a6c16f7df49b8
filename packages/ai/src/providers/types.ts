import type { Message, ToolCall } from '../messages.js';

/** A tool as a provider sees it: only fields of the providers' APIs, nothing internal. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments (an object schema). */
  parameters: Record<string, unknown>;
}

export interface ModelRequest {
  system: string;
  messages: Message[];
  tools: ToolSpec[];
  maxOutputTokens?: number;
  temperature?: number;
  /**
   * Set for a conversation that goes on (a session's turns): the provider may keep its prefix
   * cached. Anthropic requests then carry `cache_control` breakpoints, and OpenAI-format
   * requests `prompt_cache_key` = this key where the provider accepts it (the session id). Absent
   * for one-off requests (a summary, a consolidation): writing a cache nobody reads costs more.
   */
  cacheKey?: string;
}

/**
 * What one model request used. `inputTokens` counts every prompt token, cached or not;
 * `cacheReadTokens` and `cacheWriteTokens` are the parts of it read from and written to the
 * provider's prompt cache. `costUsd` is the price of the request from the catalog (absent when
 * the catalog has no price for the model that answered).
 */
export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd?: number;
}

export type StopReason = 'stop' | 'tool_use' | 'length' | 'error';

/** What a provider adapter streams back, already mapped from its wire format. */
export type ModelStreamEvent =
  | { type: 'text_delta'; delta: string }
  | { type: 'tool_call'; call: ToolCall }
  | ({ type: 'usage' } & ModelUsage)
  | { type: 'done'; stopReason: StopReason };

/**
 * One model reachable through one wire protocol. `stream` throws a `ProviderError` for any
 * failure (before or during the stream); it never prints.
 */
export interface ModelClient {
  /** `provider/model`, e.g. `openai/gpt-4.1-mini`. */
  readonly id: string;
  /**
   * The model that produced the last reply, when it can differ from `id` (after a fallback).
   * Hosts show it in turn_done and usage events.
   */
  readonly lastModel?: string | undefined;
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent>;
}

/** The wire formats (APIs) a model speaks; each has its adapter in `sdk-adapters.ts`'s table. */
export type WireProtocol = 'openai-chat' | 'anthropic-messages';
