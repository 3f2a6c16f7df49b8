import type { ToolCall } from '@tandem/ai';
import type { ModelClient, ModelRequest, StopReason } from '@tandem/ai';

export interface CollectedReply {
  text: string;
  toolCalls: ToolCall[];
  stopReason: StopReason | undefined;
  usage?: { inputTokens: number; outputTokens: number };
}

/**
 * Runs one non-interactive model call (compaction summary, memory consolidation) and gathers
 * the streamed reply. Errors are the client's `ProviderError`s, thrown as they come.
 */
export async function collectReply(client: ModelClient, request: ModelRequest, signal: AbortSignal): Promise<CollectedReply> {
  const reply: CollectedReply = { text: '', toolCalls: [], stopReason: undefined };
  for await (const event of client.stream(request, signal)) {
    if (event.type === 'text_delta') reply.text += event.delta;
    else if (event.type === 'tool_call') reply.toolCalls.push(event.call);
    else if (event.type === 'usage') reply.usage = { inputTokens: event.inputTokens, outputTokens: event.outputTokens };
    else if (event.type === 'done') reply.stopReason = event.stopReason;
  }
  return reply;
}
