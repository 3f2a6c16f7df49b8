import type { ModelInfo, SessionEvent } from '@tandem/shared';
import type { AnyTool, EngineEvent, FileBaselines, PathResolver, ToolServices, TurnOptions } from '@tandem/core';
import type { Clock, Message, ModelClient } from '@tandem/ai';

export interface ConversationFold {
  apply(event: SessionEvent): void;
  /** A copy, safe to hand to the loop (which appends to it). */
  readonly messages: Message[];
  /** The fold's state as JSON-safe data later events do not change (it may be serialised later), for a snapshot beside the log (absent: no snapshots). */
  snapshot?(): unknown;
}

/** A path resolver the user can widen with `sandbox:grant`. */
export interface GrantablePaths extends PathResolver {
  /**
   * Returns the granted path as resolved, or throws saying why it cannot be granted. `write`
   * may grant a protected location (`.git/hooks`, `.mcp.json`, …) for the session.
   */
  grant(path: string, options?: { write?: boolean }): string | Promise<string>;
  /** The protected locations granted write (absent: none can be). */
  writeGrants?(): string[];
}

export interface ModelFactoryOptions {
  clock: Clock;
  /** Fallback, retry and warning events to record in the session's log. */
  onEvent(event: EngineEvent): void;
}

/** Builds the client for a `provider/model` spec; throws a readable error for an unknown one. */
export type ModelFactory = (spec: string, options: ModelFactoryOptions) => ModelClient;

/**
 * What the server takes from the engine. The default wires @tandem/core; tests and embedders
 * may replace single parts (a scripted loop, a fixed prompt).
 */
export interface SessionEngine {
  runTurn(options: TurnOptions): AsyncIterable<EngineEvent>;
  /**
   * The model conversation as a fold over the session's persisted events (O(1) per event):
   * fed while the log loads and with every event after, so it always matches the log.
   */
  createConversation(): ConversationFold;
  /** A fold continuing from what `snapshot()` returned (after a JSON round trip); throws on a malformed one. */
  restoreConversation?(state: unknown): ConversationFold;
  /** Built at the start of each turn (AGENTS.md is read then); tools that wait for setting up (with these services) are named apart. */
  systemPrompt(args: { cwd: string; tools: readonly AnyTool[]; services: ToolServices; now: Date }): Promise<string>;
  createPaths(args: { workspace: string; granted: string[]; writeGranted?: string[]; dataDir: string; home: string }): GrantablePaths;
  createBaselines(): FileBaselines;
  listModels(): ModelInfo[];
}
