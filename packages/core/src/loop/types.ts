import type { EngineEvent } from '../base/engine-event.js';
import type { Message } from '@tandem/ai';
import type { ModelClient } from '@tandem/ai';
import type { AnyTool, FileBaselines, ToolServices } from '../tools/define.js';
import type { PathResolver } from '../ports/path-resolver.js';
import type { CommandRunner } from '../ports/command-runner.js';
import type { ToolGate } from '../ports/tool-gate.js';
import type { Clock } from '@tandem/ai';
import type { TurnContext } from '../context/turn-context.js';
import type { TurnMemory } from '../memory/turn-memory.js';

/** A user message sent while a turn runs (requirements A9); folded in at the next loop boundary. */
export interface SteeringMessage {
  text: string;
  by: string;
}

export interface TurnLimits {
  /** requirements A5: default 40. */
  maxIterations: number;
  /** requirements A5: default 120 s per tool call. */
  toolTimeoutMs: number;
}

export const DEFAULT_LIMITS: TurnLimits = { maxIterations: 40, toolTimeoutMs: 120_000 };

/**
 * What stays the same for every turn of a session, built once by the host when the session
 * opens: the workspace, the tools and what they run on, the checks every call passes, the
 * session's context accounting. A host may widen it for one turn (more tools, a narrower set).
 */
export interface TurnEnvironment {
  sessionId: string;
  cwd: string;
  tools: readonly AnyTool[];
  runner: CommandRunner;
  paths: PathResolver;
  baselines: FileBaselines;
  services?: ToolServices;
  gate?: ToolGate;
  clock?: Clock;
  limits?: Partial<TurnLimits>;
  temperature?: number;
  /**
   * The session's context accounting and compaction (requirements C1), created once per session by the
   * host (see `SessionContext`). Without it the loop neither measures nor compacts.
   */
  context?: TurnContext;
  /**
   * Tools that may come and go during the turn (MCP servers that fail or change their list):
   * asked before each model request. Its tools join `tools` for that request (never replacing
   * one of the same name); its notices (one line each, e.g. "server X stopped; its tools are
   * gone") are appended to that request's system prompt.
   */
  dynamicTools?: () => DynamicTools;
}

/** One turn: the session's environment plus what this turn is about. */
export interface TurnOptions {
  environment: TurnEnvironment;
  turnId: string;
  /** The conversation so far. The loop appends to it; on cancel it is truncated back. */
  conversation: Message[];
  /** The user's message that starts the turn, already recorded by the host. */
  user: { text: string; name: string };
  /** The host's system prompt, and long-term memory (requirements H5) computed once at turn start and frozen. */
  prompt: { system: string; memory?: TurnMemory };
  model: ModelClient;
  /** The turn's stop switch, and the steering messages that arrived since the last call. */
  control: { signal: AbortSignal; takeSteering?: () => SteeringMessage[] };
  /** Set for an external agent (a definition with `command:`): the host runs `runExternalTurn` instead of a model turn. */
  external?: ExternalAgentRun;
}

/** What `TurnEnvironment.dynamicTools` returns for one model request. */
export interface DynamicTools {
  tools: readonly AnyTool[];
  notices: readonly string[];
}

// EngineEvent lives in the bottom layer; TurnContext and TurnMemory are what context/ and memory/ offer the loop.
export type { EngineEvent } from '../base/engine-event.js';
export type { ContextRequest, TurnContext } from '../context/turn-context.js';
export type { TurnMemory } from '../memory/turn-memory.js';

/** What the host opens for one run of an external agent: the reverse bridge (ARCHITECTURE "…the reverse bridge…"). */
export interface ExternalRunContext {
  agent: string;
  turnId: string;
  /** The session's environment: the bridge's calls go through its gate, like the run itself. */
  environment: TurnEnvironment;
  signal: AbortSignal;
  emit(event: EngineEvent): void;
  /** Resolves once the host has handled every event emitted so far. */
  settled(): Promise<void>;
}

/** An agent definition with `command:`, as one turn runs it. */
export interface ExternalAgentRun {
  agent: string;
  /** The definition's `command:` (`{task}` marks where the task goes). */
  command: string;
  timeoutMs?: number;
  /** The definition's body, put before each task in `TANDEM_TASK` (absent: the task alone). */
  preamble?: string;
  /** Opens the bridge for this run; its variables join the command's environment; closed when the run ends. */
  bridge?(run: ExternalRunContext): Promise<{ env: Record<string, string>; close(): Promise<void> }>;
}
