import type { AgentDefinition } from './agent-file.js';

/**
 * The commander's system-prompt section: each agent's name and description verbatim (the
 * commander chooses from these), which ones may be handed the floor, and how to use the three
 * orchestration tools. Undefined when no agent is defined (run_worker still works then).
 */
export function agentsPromptSection(agents: readonly AgentDefinition[]): string | undefined {
  if (agents.length === 0) return undefined;
  const lines = [
    'Agents you can delegate to (name: when to use it). Dispatch with the dispatch_to tool, never by writing @name in your answer; several dispatch_to calls in one reply run in parallel and their answers come back in the order you wrote them. run_worker runs a subtask with your own tools. hand_off_to gives the conversation to an agent marked (interactive) and ends your turn.',
    ...agents.map((a) => `- ${a.name}${a.interactive ? ' (interactive)' : ''}: ${a.description}`),
  ];
  return lines.join('\n');
}
