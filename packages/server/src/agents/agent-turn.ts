import {
  type AgentDefinition,
  type AnyTool,
  agentsPromptSection,
  DISPATCH_TO,
  HAND_OFF_TO,
  isOrchestrationTool,
  type ExternalAgentRun,
  resolveModelAlias,
  selectAgentTools,
  type TurnOptions,
} from '@tandem/core';
import type { ModelClient } from '@tandem/ai';

/** Who a turn is for. */
export type AgentProfile =
  /** The session's default agent: every tool plus orchestration, and the agents list in its prompt. */
  | { kind: 'commander' }
  /** A defined agent (holding the floor, addressed with @NAME, or dispatched): its prompt, tools and model. */
  | { kind: 'agent'; definition: AgentDefinition }
  /** A `run_worker` subtask: the commander's tools minus orchestration, the session's prompt and model. */
  | { kind: 'worker' };

export interface AgentTurnParts {
  /** The usable definitions now. */
  agents: readonly AgentDefinition[];
  /** The commander's orchestration tools (all three; only the useful ones are offered). */
  orchestration: readonly AnyTool[];
  /** A client for a definition's own `model`. */
  modelFor(spec: string): ModelClient;
  /** The models a Claude Code alias (`model: sonnet`) may resolve to: the catalog (`models:list`). */
  models?: () => readonly { id: string; provider: string }[];
  /** Says once that an agent's model alias has no counterpart on the session's provider (a model_warning). */
  warn?: (model: string, message: string) => void;
  /** Opens the reverse bridge for an external agent's run (absent: external agents run without one). */
  bridge?: ExternalAgentRun['bridge'];
}

export const WORKER_NOTE =
  'You are a worker: you were given one task by the commander. Do it with your tools and end with your answer to the task; nobody reads your text except the commander, as the result.';

/**
 * Shapes a turn's options (built for the session) for one agent (ARCHITECTURE.md "Agents"):
 * the commander gets the orchestration tools — `run_worker` always, `dispatch_to` when an agent
 * is defined, `hand_off_to` when an interactive one is — and the agents section of its prompt;
 * any other agent gets its definition's prompt ahead of the session's, its allow-listed tools
 * (no orchestration: workers cannot dispatch at the default depth limit) and its model. The
 * commander's context accounting is taken off another agent's turn; the session gives it its own.
 */
export function shapeAgentTurn(options: TurnOptions, profile: AgentProfile, parts: AgentTurnParts): TurnOptions {
  if (profile.kind === 'commander') {
    const offered = parts.orchestration.filter((t) => offersTool(t.name, parts.agents));
    const section = agentsPromptSection(parts.agents);
    return {
      ...options,
      environment: { ...options.environment, tools: [...options.environment.tools, ...offered] },
      prompt: { ...options.prompt, system: section ? `${options.prompt.system}\n\n${section}` : options.prompt.system },
    };
  }
  const definition = profile.kind === 'agent' ? profile.definition : undefined;
  if (definition?.command) return { ...options, external: externalRun(definition.name, definition.command, definition.prompt, parts) };
  const { context: _commanders, dynamicTools, ...environment } = options.environment;
  const allowed = definition?.tools;
  const system = definition ? `${definition.prompt}\n\n${options.prompt.system}` : `${options.prompt.system}\n\n${WORKER_NOTE}`;
  return {
    ...options,
    environment: {
      ...environment,
      tools: toolsOfProfile(environment.tools, profile),
      ...(dynamicTools
        ? {
            dynamicTools: () => {
              const extra = dynamicTools();
              return allowed ? { ...extra, tools: extra.tools.filter((t) => allowed.includes(t.name) && !isOrchestrationTool(t.name)) } : extra;
            },
          }
        : {}),
    },
    prompt: { ...options.prompt, system },
    model: agentModel(definition, options.model, parts),
  };
}

/**
 * The model an agent runs on: its own `provider/model`; for Claude Code's `sonnet` / `opus` /
 * `haiku`, that family on the session's provider; otherwise (or when the provider has none,
 * with a warning) the session's model.
 */
function agentModel(definition: AgentDefinition | undefined, session: ModelClient, parts: AgentTurnParts): ModelClient {
  if (definition?.model) return parts.modelFor(definition.model);
  if (!definition?.modelAlias) return session;
  const id = resolveModelAlias(definition.modelAlias, session.id, parts.models?.() ?? []);
  if (id) return id === session.id ? session : parts.modelFor(id);
  parts.warn?.(
    session.id,
    `agent ${definition.name} asks for model ${definition.modelAlias}; ${session.id.split('/')[0]} has no ${definition.modelAlias} model, so it runs on the session's ${session.id}`,
  );
  return session;
}

/**
 * The session's fixed tools a turn of this profile gets (before the commander's orchestration
 * tools): all of them for the commander, the definition's allow-list without orchestration for
 * any other agent. The system prompt names these, so an agent is not told of tools it lacks.
 */
export function toolsOfProfile(tools: readonly AnyTool[], profile: AgentProfile): AnyTool[] {
  if (profile.kind === 'commander') return [...tools];
  const definition = profile.kind === 'agent' ? profile.definition : undefined;
  const names = new Set(
    selectAgentTools(
      definition,
      tools.map((t) => t.name),
      { depth: 1 },
    ).names,
  );
  return tools.filter((t) => names.has(t.name));
}

/** An external agent's run: its command instead of a model, the bridge the host opens for it. */
function externalRun(agent: string, command: string, prompt: string, parts: AgentTurnParts): ExternalAgentRun {
  return { agent, command, ...(prompt ? { preamble: prompt } : {}), ...(parts.bridge ? { bridge: parts.bridge } : {}) };
}

function offersTool(name: string, agents: readonly AgentDefinition[]): boolean {
  if (name === DISPATCH_TO) return agents.length > 0;
  if (name === HAND_OFF_TO) return agents.some((a) => a.interactive);
  return true;
}
