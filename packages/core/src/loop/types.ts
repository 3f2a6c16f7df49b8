import type { EventBody } from '@tandem/shared';
import type { Message } from '../messages.js';
import type { ModelClient } from '../providers/types.js';
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
}

/** What the loop yields: session events before the host stamps `sessionId`, `seq` and `ts`. */
export type EngineEvent = EventBody;
