import type { EngineEvent } from '../base/engine-event.js';
import type { Message } from '@tandem/ai';
import type { ToolSpec } from '@tandem/ai';

/** What the context step sees of the next model request. `conversation` may be compacted in place. */
export interface ContextRequest {
  conversation: Message[];
  system: string;
  tools: readonly ToolSpec[];
  signal: AbortSignal;
}

/** The loop's view of a session's context manager; events returned are yielded as they are. */
export interface TurnContext {
  /**
   * Before each model request: compacts when the request would reach the threshold (yielding
   * `compaction` or `compaction_skipped`) and always reports `context_usage`.
   */
  beforeRequest(request: ContextRequest): Promise<EngineEvent[]>;
  /** The provider said the request does not fit: one forced compaction; `compacted` says whether to retry. */
  onOverflow(request: ContextRequest): Promise<{ compacted: boolean; events: EngineEvent[] }>;
  /** The provider's reported input tokens for the request just answered (calibration, requirements C2). */
  afterReply(report: { inputTokens: number; model: string }): void;
}
