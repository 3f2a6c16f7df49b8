import { randomUUID } from 'node:crypto';
import type OpenAI from 'openai';
import type { Stream } from 'openai/streaming';
import { DEFAULT_TEMPERATURE } from '../base/temperature.js';
import { parseToolArgs } from '../base/tool-args.js';
import type { AdapterOptions } from './adapter-options.js';
import { adapterState } from './adapter-state.js';
import { classifyProviderError, describeProviderError } from './classify-error.js';
import { ProviderError } from './provider-error.js';
import { toOpenAIMessages, toOpenAITools } from './openai-request.js';
import { loadOpenAISdk } from './openai-sdk.js';
import type { ModelClient, ModelRequest, ModelStreamEvent, ModelUsage, StopReason } from './types.js';

/** The OpenAI-compatible adapter takes every adapter option. */
export type OpenAIChatClientOptions = AdapterOptions;

interface PendingCall {
  id: string;
  name: string;
  rawArgs: string;
}

/** A ModelClient over the OpenAI Chat Completions API (OpenAI and every compatible gateway). */
export function createOpenAIChatClient(options: OpenAIChatClientOptions): ModelClient {
  // The SDK loads with the first request (openai-sdk.ts); the client is made once.
  const { clientOf, ctx, bodies, toolsKey } = adapterState(loadOpenAISdk, options);

  async function* stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelStreamEvent> {
    let afterContent = false;
    const fail = (err: unknown) => classifyProviderError(err, { ...ctx, afterContent });
    // Everything but the messages and tools, typed as the SDK's request; those two are spliced in
    // as bytes, carried over from the last body where unchanged (request-bytes.ts), and the SDK sends the bytes.
    const fields: Omit<OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming, 'messages' | 'tools'> = {
      model: options.model,
      stream: true,
      stream_options: { include_usage: true },
    };
    if (options.supportsTemperature !== false) fields.temperature = request.temperature ?? DEFAULT_TEMPERATURE;
    if (request.maxOutputTokens !== undefined) fields[options.maxTokensField ?? 'max_completion_tokens'] = request.maxOutputTokens;
    // The provider caches a byte-identical prefix by itself; the key keeps a session's requests on the same cache.
    if (request.cacheKey !== undefined && options.promptCacheKey) fields.prompt_cache_key = request.cacheKey;
    const body = bodies.body(fields, [
      { name: 'messages', key: request.messages, items: toOpenAIMessages(request.system, request.messages, { images: options.supportsImages !== false }) },
      { name: 'tools', key: toolsKey, items: toOpenAITools(request.tools) },
    ]);
    try {
      let chunks: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>;
      try {
        // What `chat.completions.create` does with an object body, given its JSON bytes instead.
        chunks = await (await clientOf()).post<Stream<OpenAI.Chat.Completions.ChatCompletionChunk>>('/chat/completions', {
          body,
          headers: { 'content-type': 'application/json' },
          stream: true,
          signal,
        });
      } catch (err) {
        throw fail(err);
      }

      const calls = new Map<number, PendingCall>();
      let finish: string | undefined;
      let usage: ModelUsage | undefined;
      try {
        for await (const chunk of chunks) {
          if (chunk.usage) usage = usageOf(chunk.usage);
          const choice = chunk.choices?.[0];
          if (!choice) continue;
          const delta = choice.delta;
          if (delta?.content) {
            afterContent = true;
            yield { type: 'text_delta', delta: delta.content };
          }
          for (const tc of delta?.tool_calls ?? []) {
            const pending = calls.get(tc.index) ?? { id: '', name: '', rawArgs: '' };
            if (tc.id) pending.id = tc.id;
            if (tc.function?.name) pending.name += tc.function.name;
            if (tc.function?.arguments) pending.rawArgs += tc.function.arguments;
            calls.set(tc.index, pending);
          }
          if (choice.finish_reason) finish = choice.finish_reason;
        }
      } catch (err) {
        throw midStreamError(err, ctx, afterContent);
      }
      if (signal.aborted) throw fail(signal.reason ?? new DOMException('aborted', 'AbortError'));
      if (finish === undefined) {
        throw new ProviderError('stream_cut', describeProviderError('stream_cut', ctx), { ...ctx, afterContent });
      }
      if (finish === 'content_filter' && !afterContent && calls.size === 0) {
        throw new ProviderError('content_policy', describeProviderError('content_policy', ctx), { ...ctx, afterContent });
      }
      const ordered = [...calls.entries()].sort((a, b) => a[0] - b[0]);
      for (const [index, call] of ordered) {
        afterContent = true;
        yield {
          type: 'tool_call',
          call: { id: call.id || syntheticCallId(index), name: call.name, args: parseToolArgs(call.rawArgs), rawArgs: call.rawArgs },
        };
      }
      if (usage) yield { type: 'usage', ...usage };
      yield { type: 'done', stopReason: stopReasonOf(finish, calls.size > 0) };
    } finally {
      // Its memory is used again once no transport still sends it (body-lease.ts).
      bodies.done(body);
    }
  }

  return { id: options.id, stream: (request, signal) => stream(request, signal) };
}

/**
 * `prompt_tokens` counts every prompt token; the part read from the cache is
 * `prompt_tokens_details.cached_tokens`, and a gateway that writes caches explicitly (OpenRouter
 * to Anthropic) says how much it wrote in `cache_write_tokens`.
 */
function usageOf(u: OpenAI.Completions.CompletionUsage): ModelUsage {
  return {
    inputTokens: u.prompt_tokens ?? 0,
    outputTokens: u.completion_tokens ?? 0,
    cacheReadTokens: u.prompt_tokens_details?.cached_tokens ?? 0,
    cacheWriteTokens: u.prompt_tokens_details?.cache_write_tokens ?? 0,
  };
}

/** Some OpenAI-compatible servers omit call ids; a made-up one must still be unique in the conversation. */
function syntheticCallId(index: number): string {
  return `call_${index}_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
}

function stopReasonOf(finish: string, hasCalls: boolean): StopReason {
  if (hasCalls || finish === 'tool_calls' || finish === 'function_call') return 'tool_use';
  if (finish === 'length') return 'length';
  return 'stop';
}

/**
 * An error while reading an accepted stream. An error event the provider sent keeps its class;
 * a dropped connection is a `stream_cut`, whatever the transport called it.
 */
export function midStreamError(err: unknown, ctx: { provider: string; model: string }, afterContent: boolean): ProviderError {
  const classified = classifyProviderError(err, { ...ctx, afterContent });
  if (classified.kind === 'aborted' || classified.details.status !== undefined) return classified;
  if (classified.kind === 'network' || classified.kind === 'stream_cut') {
    return new ProviderError('stream_cut', describeProviderError('stream_cut', ctx), { ...ctx, afterContent, cause: err });
  }
  return classified;
}
