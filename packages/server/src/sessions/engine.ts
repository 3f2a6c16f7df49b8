import type { ModelInfo, SessionEvent } from '@tandem/shared';
import type {
  AnyTool,
  Clock,
  EngineEvent,
  FileBaselines,
  Message,
  ModelClient,
  PathResolver,
  TurnOptions,
} from '@tandem/core';

/** A path resolver the user can widen with `sandbox:grant`. */
export interface GrantablePaths extends PathResolver {
  /** Returns the granted path as resolved, or throws saying why it cannot be granted. */
  grant(path: string): string | Promise<string>;
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
  /** The conversation a session's persisted events describe (for restarts). */
  conversationFromEvents(events: readonly SessionEvent[]): Message[];
  systemPrompt(args: { cwd: string; tools: readonly AnyTool[] }): Promise<string>;
  createPaths(args: { workspace: string; granted: string[]; dataDir: string; home: string }): GrantablePaths;
  createBaselines(): FileBaselines;
  listModels(): ModelInfo[];
}
