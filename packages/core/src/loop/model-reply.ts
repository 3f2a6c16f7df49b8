import type { ToolCall } from '@tandem/ai';
import { ProviderError } from '@tandem/ai';
import { emptyUsage, sumUsage } from '@tandem/ai';
import type { ModelClient, ModelRequest, ModelUsage, StopReason } from '@tandem/ai';
import { errorMessage } from './argument-errors.js';

export interface ModelReply {
  text: string;
  toolCalls: ToolCall[];
  inputTokens: number;
  outputTokens: number;
  /** Every usage the request reported, its cache parts and its price (see `ModelUsage`). */
  usage: ModelUsage;
  stopReason: StopReason;
  /** Set when the call failed; `text` then holds whatever streamed before the failure. */
  error?: ProviderError | { kind: 'model_error'; message: string };
}

/**
 * Reads one streamed reply: forwards text deltas as they come and gathers the tool calls.
 * A failure is returned, not thrown, together with the partial text.
 */
export async function readModelReply(model: ModelClient, request: ModelRequest, signal: AbortSignal, onDelta: (delta: string) => void): Promise<ModelReply> {
  const reply: ModelReply = { text: '', toolCalls: [], inputTokens: 0, outputTokens: 0, usage: emptyUsage(), stopReason: 'stop' };
  try {
    for await (const event of model.stream(request, signal)) {
      if (event.type === 'text_delta') {
        reply.text += event.delta;
        onDelta(event.delta);
      } else if (event.type === 'tool_call') {
        reply.toolCalls.push(event.call);
      } else if (event.type === 'usage') {
        reply.inputTokens += event.inputTokens;
        reply.outputTokens += event.outputTokens;
        const { type: _usage, ...used } = event;
        reply.usage = sumUsage(reply.usage, used);
      } else if (event.type === 'done') {
        reply.stopReason = event.stopReason;
      }
    }
  } catch (err) {
    reply.error = err instanceof ProviderError ? err : { kind: 'model_error', message: `The model call failed: ${errorMessage(err)}` };
  }
  return reply;
}
