import type Anthropic from '@anthropic-ai/sdk';
import type { Stream } from '@anthropic-ai/sdk/streaming';
import { parseToolArgs } from '../base/tool-args.js';
import type { AdapterOptions } from './adapter-options.js';
import { adapterState } from './adapter-state.js';
import { classifyProviderError, describeProviderError } from './classify-error.js';
import { ProviderError } from './provider-error.js';
import { placeBreakpoints } from './anthropic-cache.js';
import { toAnthropicMessages, toAnthropicTools } from './anthropic-request.js';
import { loadAnthropicSdk } from './anthropic-sdk.js';
import { midStreamError } from './openai-chat.js';
import type { ModelClient, ModelRequest, ModelStreamEvent, StopReason } from './types.js';

/** The Anthropic adapter sends no temperature and always uses `max_tokens`. */
export type AnthropicClientOptions = Omit<AdapterOptions, 'supportsTemperature' | 'maxTokensField' | 'promptCacheKey'>;

/**
 * The Messages API requires max_tokens; a main turn gets a generous one (requirements A11).
 * No temperature is sent: API version 2026-10-21 (the SDK's default) rejects sampling
 * parameters with a 400, and SDK 1.x no longer has the field.
 */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 16_384;

interface OpenBlock {
  kind: 'text' | 'tool_use' | 'other';
  id: string;
  name: string;
  json: string;
}

/** A ModelClient over the Anthropic Messages API. */
export function createAnthropicClient(options: AnthropicClientOptions): ModelClient {
  // The SDK loads with the first request (anthropic-sdk.ts); the client is made once.
  const { clientOf, ctx, bodies, toolsKey } = adapterState(loadAnthropicSdk, options);

  async function* stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelStreamEvent> {
    let afterContent = false;
    // Everything but the messages and tools, typed as the SDK's request; those two are spliced in
    // as bytes, carried over from the last body where unchanged (request-bytes.ts), and the SDK
    // sends the bytes. The messages list is never empty (a turn starts with the user's message).
    const fields: Omit<Anthropic.Messages.MessageCreateParamsStreaming, 'messages' | 'tools'> = {
      model: options.model,
      max_tokens: request.maxOutputTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
      stream: true,
    };
    let messages = toAnthropicMessages(request.messages, { images: options.supportsImages !== false });
    let tools = toAnthropicTools(request.tools);
    if (request.cacheKey !== undefined) {
      // A session's conversation: breakpoints so each request reads the previous one's prefix (anthropic-cache.ts).
      const cached = placeBreakpoints(request.system, tools, messages);
      if (cached.system) fields.system = cached.system;
      messages = cached.messages;
      tools = cached.tools;
    } else if (request.system.trim() !== '') {
      fields.system = request.system;
    }
    const body = bodies.body(fields, [
      { name: 'messages', key: request.messages, items: messages },
      { name: 'tools', key: toolsKey, items: tools },
    ]);
    try {
      let events: AsyncIterable<Anthropic.Messages.RawMessageStreamEvent>;
      try {
        // What `messages.create` does with a streaming object body (no betas, workspace or tracing
        // here), given its JSON bytes instead.
        events = await (await clientOf()).post<Stream<Anthropic.Messages.RawMessageStreamEvent>>('/v1/messages', {
          body,
          headers: { 'content-type': 'application/json' },
          stream: true,
          signal,
        });
      } catch (err) {
        throw classifyProviderError(err, { ...ctx, afterContent });
      }

      const blocks = new Map<number, OpenBlock>();
      // Every prompt token, and the parts of it read from and written to the cache (the API counts them apart).
      let inputTokens = 0;
      let cacheReadTokens = 0;
      let cacheWriteTokens = 0;
      let outputTokens = 0;
      let stopReason: string | null | undefined;
      let stopped = false;
      try {
        for await (const event of events) {
          switch (event.type) {
            case 'message_start': {
              const u = event.message.usage;
              cacheReadTokens = u.cache_read_input_tokens ?? 0;
              cacheWriteTokens = u.cache_creation_input_tokens ?? 0;
              inputTokens = (u.input_tokens ?? 0) + cacheWriteTokens + cacheReadTokens;
              outputTokens = u.output_tokens ?? 0;
              break;
            }
            case 'content_block_start': {
              const b = event.content_block;
              if (b.type === 'tool_use') blocks.set(event.index, { kind: 'tool_use', id: b.id, name: b.name, json: '' });
              else blocks.set(event.index, { kind: b.type === 'text' ? 'text' : 'other', id: '', name: '', json: '' });
              if (b.type === 'text' && b.text) {
                afterContent = true;
                yield { type: 'text_delta', delta: b.text };
              }
              break;
            }
            case 'content_block_delta': {
              const d = event.delta;
              if (d.type === 'text_delta' && d.text) {
                afterContent = true;
                yield { type: 'text_delta', delta: d.text };
              } else if (d.type === 'input_json_delta') {
                const open = blocks.get(event.index);
                if (open) open.json += d.partial_json;
              }
              break;
            }
            case 'content_block_stop': {
              const open = blocks.get(event.index);
              blocks.delete(event.index);
              if (open?.kind === 'tool_use') {
                afterContent = true;
                yield { type: 'tool_call', call: { id: open.id, name: open.name, args: parseToolArgs(open.json), rawArgs: open.json } };
              }
              break;
            }
            case 'message_delta': {
              stopReason = event.delta.stop_reason ?? stopReason;
              const u = event.usage;
              if (u.cache_read_input_tokens != null) cacheReadTokens = u.cache_read_input_tokens;
              if (u.cache_creation_input_tokens != null) cacheWriteTokens = u.cache_creation_input_tokens;
              if (u.input_tokens != null) inputTokens = u.input_tokens + cacheWriteTokens + cacheReadTokens;
              outputTokens = u.output_tokens ?? outputTokens;
              break;
            }
            case 'message_stop':
              stopped = true;
              break;
          }
        }
      } catch (err) {
        throw midStreamError(err, ctx, afterContent);
      }
      if (signal.aborted) {
        throw classifyProviderError(signal.reason ?? new DOMException('aborted', 'AbortError'), { ...ctx, afterContent });
      }
      if (!stopped) throw new ProviderError('stream_cut', describeProviderError('stream_cut', ctx), { ...ctx, afterContent });
      if (stopReason === 'refusal' && !afterContent) {
        throw new ProviderError('content_policy', describeProviderError('content_policy', ctx), { ...ctx, afterContent });
      }
      yield { type: 'usage', inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens };
      yield { type: 'done', stopReason: stopReasonOf(stopReason) };
    } finally {
      // Its memory is used again once no transport still sends it (body-lease.ts).
      bodies.done(body);
    }
  }

  return { id: options.id, stream: (request, signal) => stream(request, signal) };
}

function stopReasonOf(reason: string | null | undefined): StopReason {
  if (reason === 'tool_use') return 'tool_use';
  if (reason === 'max_tokens' || reason === 'model_context_window_exceeded') return 'length';
  return 'stop';
}
