import type { AgentDefinition } from './agent-file.js';

/** One agent run the orchestration tools ask the host for. */
export interface AgentRunRequest {
  /** The agent's name on events: a definition's name, a named worker's name, or a generated `worker-N`. */
  agent: string;
  /** The definition for `dispatch_to`; undefined for `run_worker` (the parent's tools minus orchestration). */
  definition?: AgentDefinition;
  kind: 'dispatch' | 'worker';
  /** Its task, sent as the user message of its own slice. */
  task: string;
  taskId: string;
  /** Who asked (`commander`, or a worker when the depth limit allows). */
  parent: string;
  /** Shown in the transcript: dispatched agents and named workers; anonymous workers are hidden. */
  visible: boolean;
  /** The child's depth: 1 for what the commander starts. The host gives it orchestration tools only below the depth limit. */
  depth: number;
  /** Aborts with the parent's call (the session's one stop path). */
  signal: AbortSignal;
}

/** A run's end: the final answer, or what went wrong (a provider error, a limit) as text for the parent. */
export type AgentRunResult = { answer: string } | { error: string };

/**
 * The port the orchestration tools call (core knows no sessions): the host runs an agent to
 * completion on its own slice, emitting `agent_started` / `agent_done` and the agent's events,
 * and moves the floor. Implemented by the server's session.
 */
export interface AgentRunner {
  runAgent(request: AgentRunRequest): Promise<AgentRunResult>;
  /** Gives the floor to `agent` (already checked to be interactive), with the commander's optional message to it. */
  handOff(request: { agent: string; message?: string; by: string }): Promise<void>;
}
