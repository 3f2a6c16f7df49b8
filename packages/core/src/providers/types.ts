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
}

export type StopReason = 'stop' | 'tool_use' | 'length' | 'error';

/** What a provider adapter streams back, already mapped from its wire format. */
export type ModelStreamEvent =
  | { type: 'text_delta'; delta: string }
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'usage'; inputTokens: number; outputTokens: number }
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

export type WireProtocol = 'openai-chat' | 'anthropic-messages';
