import { streamWithOverflowRetry } from '../context/overflow-retry.js';
import type { ModelClient, ModelRequest } from '@tandem/ai';
import type { ContextRequest, EngineEvent, TurnContext } from './types.js';

/** How the context step reports back to the turn. */
export interface ContextStepIo {
  emit(event: EngineEvent): void;
  /** A compaction folded this many messages into a summary: the turn's rollback point moves. */
  onCompaction(foldedMessages: number): void;
}

/**
 * The per-request context step (requirements C1): before the model is called, the session's context
 * manager may compact `request.messages` in place (it is the turn's conversation array) and
 * reports the usage. Nothing is yielded once the turn was cancelled.
 */
export async function runContextStep(context: TurnContext, request: ModelRequest, signal: AbortSignal, io: ContextStepIo): Promise<void> {
  const events = await context.beforeRequest(contextRequest(request, signal));
  if (!signal.aborted) publish(events, io);
}

/**
 * The model as the loop calls it when a context manager is present: a `context_overflow`
 * before any content triggers one forced compaction and one retry of the same request (which
 * then carries the compacted conversation); a second failure reaches the loop as an error.
 */
export function overflowGuarded(model: ModelClient, context: TurnContext, signal: AbortSignal, io: ContextStepIo): ModelClient {
  return {
    id: model.id,
    get lastModel() {
      return model.lastModel;
    },
    stream: (request, streamSignal) =>
      streamWithOverflowRetry(
        () => model.stream(request, streamSignal),
        async () => {
          const outcome = await context.onOverflow(contextRequest(request, signal));
          if (signal.aborted) return false;
          publish(outcome.events, io);
          return outcome.compacted;
        },
      ),
  };
}

function contextRequest(request: ModelRequest, signal: AbortSignal): ContextRequest {
  return { conversation: request.messages, system: request.system, tools: request.tools, signal };
}

function publish(events: readonly EngineEvent[], io: ContextStepIo): void {
  for (const event of events) {
    if (event.type === 'compaction') io.onCompaction(event.foldedMessages);
    io.emit(event);
  }
}
