import type { AgentDefinition } from './agent-file.js';

export const DISPATCH_TO = 'dispatch_to';
export const RUN_WORKER = 'run_worker';
export const HAND_OFF_TO = 'hand_off_to';
export const ORCHESTRATION_TOOL_NAMES: readonly string[] = [DISPATCH_TO, RUN_WORKER, HAND_OFF_TO];
/** By default workers cannot dispatch: the commander is depth 0, what it starts is depth 1. */
export const DEFAULT_MAX_AGENT_DEPTH = 1;

export function isOrchestrationTool(name: string): boolean {
  return ORCHESTRATION_TOOL_NAMES.includes(name);
}

/** Whether an agent at `depth` may start others (commander = 0). */
export function mayOrchestrate(depth: number, maxDepth: number = DEFAULT_MAX_AGENT_DEPTH): boolean {
  return depth < maxDepth;
}

export interface AgentToolSelection {
  /** The tool names the agent gets, in the order of `available`. */
  names: string[];
  /** Names its definition lists that no tool has (worth a warning: a typo, or an MCP server that is down). */
  unknown: string[];
}

/**
 * Which tools an agent at `depth` gets from the `available` ones: its definition's allow-list,
 * or every non-orchestration tool when it has none (a `run_worker` subtask has no definition).
 * Orchestration tools come only when the allow-list names them AND the depth limit allows it.
 */
export function selectAgentTools(
  definition: Pick<AgentDefinition, 'tools'> | undefined,
  available: readonly string[],
  options: { depth: number; maxDepth?: number },
): AgentToolSelection {
  const allowed = definition?.tools;
  const orchestrate = mayOrchestrate(options.depth, options.maxDepth);
  const names = available.filter((name) => {
    if (isOrchestrationTool(name)) return orchestrate && (allowed?.includes(name) ?? false);
    return allowed ? allowed.includes(name) : true;
  });
  const unknown = (allowed ?? []).filter((name) => !available.includes(name));
  return { names, unknown };
}
