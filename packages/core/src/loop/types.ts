import type { EventBody } from '@tandem/shared';
import type { Message } from '../messages.js';
import type { ModelClient, ToolSpec } from '../providers/types.js';
import type { AnyTool, FileBaselines, PathResolver, ToolServices } from '../tools/define.js';
import type { CommandRunner } from '../ports/command-runner.js';
import type { ToolGate } from '../ports/tool-gate.js';
import type { Clock } from '../ports/clock.js';

/** A user message sent while a turn runs (SPEC A9); folded in at the next loop boundary. */
export interface SteeringMessage {
  text: string;
  by: string;
}

export interface TurnLimits {
  /** SPEC A5: default 40. */
  maxIterations: number;
  /** SPEC A5: default 120 s per tool call. */
  toolTimeoutMs: number;
}

export const DEFAULT_LIMITS: TurnLimits = { maxIterations: 40, toolTimeoutMs: 120_000 };

export interface TurnOptions {
  sessionId: string;
  turnId: string;
  /** The conversation so far. The loop appends to it; on cancel it is truncated back. */
  conversation: Message[];
  /** The user's message that starts the turn, already recorded by the host. */
  userText: string;
  userName: string;
  system: string;
  model: ModelClient;
  tools: readonly AnyTool[];
  cwd: string;
  runner: CommandRunner;
  paths: PathResolver;
  baselines: FileBaselines;
  services?: ToolServices;
  gate?: ToolGate;
  clock?: Clock;
  limits?: Partial<TurnLimits>;
  temperature?: number;
  signal: AbortSignal;
  /** Returns (and removes) steering messages that arrived since the last call. */
  takeSteering?: () => SteeringMessage[];
  /**
   * The session's context accounting and compaction (SPEC C1), created once per session by the
   * host (see `SessionContext`). Without it the loop neither measures nor compacts.
   */
  context?: TurnContext;
  /** Long-term memory for the system prompt (SPEC H5), computed once at turn start and frozen. */
  memory?: TurnMemory;
}

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
  /** The provider's reported input tokens for the request just answered (calibration, SPEC C2). */
  afterReply(report: { inputTokens: number; model: string }): void;
}

/** Memory for the turn's system prompt: the section for the user's message, or nothing. */
export interface TurnMemory {
  promptSection(query: string, signal: AbortSignal): Promise<string | undefined>;
}

/** What the loop yields: session events before the host stamps `sessionId`, `seq` and `ts`. */
export type EngineEvent = EventBody;
