import type { EventBody } from '@tandem/shared';
import {
  type AgentDefinition,
  type AnyTool,
  COMMANDER,
  type EngineEvent,
  isOffered,
  runExternalTurn,
  type SteeringMessage,
  type ToolServices,
  type TurnEnvironment,
  type TurnLimits,
  type TurnOptions,
} from '@tandem/core';
import type { Clock, Message, ModelClient } from '@tandem/ai';
import { webSearchTool } from '@tandem/assistant-tools';
import { type AgentProfile, shapeAgentTurn, toolsOfProfile } from '../agents/agent-turn.js';
import type { ModelFactory, SessionEngine } from './engine.js';
import { FrozenPrompts } from './frozen-prompts.js';
import type { HostEnvironment, SessionRunner } from './session-environment.js';
import type { SessionMeta } from './session-index.js';

/** What one turn is built from (a worker's has no steering and an empty conversation). */
export interface TurnSpec {
  turnId: string;
  text: string;
  by: string;
  signal: AbortSignal;
  takeSteering?: () => SteeringMessage[];
  conversation: Message[];
  profile: AgentProfile;
  /** A dispatched run (its own slice, ended with the run), not a turn of an agent talking with the user. */
  worker?: boolean;
  /** This turn's own limits over the session's (`session:send { maxIterations }`). */
  limits?: Partial<TurnLimits> | undefined;
}

/** What a turn takes from the session's agents: their definitions, the commander's orchestration tools, their models. */
export interface TurnAgents {
  definitions(): readonly AgentDefinition[];
  readonly orchestration: readonly AnyTool[];
  modelFor(spec: string): ModelClient;
}

export interface TurnPlannerParts {
  /** The session's metadata, read at each turn (a `session:configure` changes it in place). */
  meta: SessionMeta;
  /** The engine environment every turn of the session starts from. */
  environment: TurnEnvironment & { runner: SessionRunner };
  host: HostEnvironment;
  engine: Pick<SessionEngine, 'runTurn' | 'systemPrompt' | 'listModels'>;
  modelFactory: ModelFactory;
  clock: Clock;
  /** Where the model client's fallback and retry events and the model warnings go (the session's pipeline). */
  emit(body: EventBody | EngineEvent): void;
}

/**
 * What a session's turns are built from and run on: each turn's options (the system prompt and
 * memory frozen for the session, the host's turn steps, the agent's shape, search only) and the
 * engine or external agent that runs it. Its turns' owner (`SessionTurns`) and the agents'
 * dispatched runs (`SessionAgents`) both build and run their turns here.
 */
export class TurnPlanner {
  /** The system prompt and memory, frozen for the session so every request starts with the same bytes. */
  private readonly prompts = new FrozenPrompts();
  private model: ModelClient | undefined;
  /** Warnings about agents' models already said in this session (each is said once). */
  private readonly warned = new Set<string>();

  constructor(private readonly parts: TurnPlannerParts) {}

  /** The engine's options for one turn (may throw: an unknown model, a broken config). */
  async options(spec: TurnSpec, agents: TurnAgents): Promise<TurnOptions> {
    const { meta, host, engine, clock } = this.parts;
    const base = this.parts.environment;
    // The prompt names the tools this turn offers: the agent's own, or web_search alone.
    const tools = toolsOfProfile(base.tools, spec.profile);
    const offered = meta.searchOnly ? tools.filter(isSearchTool) : tools;
    const services = base.services ?? {};
    // Made once per set of offered tools and kept (the date and AGENTS.md as at the session's first turn).
    const system = await this.prompts.system(promptKey(offered, services), () =>
      engine.systemPrompt({ cwd: meta.cwd, tools: offered, services, now: new Date(clock.now()) }),
    );
    const environment = spec.limits ? { ...base, limits: { ...base.limits, ...spec.limits } } : base;
    let options: TurnOptions = {
      environment,
      turnId: spec.turnId,
      // The loop works on a copy; the session's own conversation follows the events it emits.
      conversation: spec.conversation,
      user: { text: spec.text, name: spec.by },
      prompt: { system },
      model: this.modelClient(),
      control: { signal: spec.signal, ...(spec.takeSteering ? { takeSteering: spec.takeSteering } : {}) },
    };
    for (const step of host.turnSteps) options = await step(options);
    // The memory section of a conversation is recalled once and kept; a worker's run recalls for its own task.
    const { memory } = options.prompt;
    if (memory && !spec.worker) {
      const holder = spec.profile.kind === 'agent' ? spec.profile.definition.name : COMMANDER;
      options = { ...options, prompt: { ...options.prompt, memory: this.prompts.memory(holder, memory) } };
    }
    options = shapeAgentTurn(options, spec.profile, {
      agents: agents.definitions(),
      orchestration: agents.orchestration,
      modelFor: (model) => agents.modelFor(model),
      models: () => engine.listModels(),
      warn: (model, message) => {
        if (this.warned.has(message)) return;
        this.warned.add(message);
        this.parts.emit({ type: 'model_warning', model, message });
      },
      ...(host.bridge ? { bridge: host.bridge } : {}),
    });
    if (options.external) return options;
    const { agentContext, evolvingTurn } = host;
    if (spec.profile.kind === 'agent' && spec.profile.definition.evolve && evolvingTurn) options = evolvingTurn(options, spec.profile.definition);
    if (spec.profile.kind !== 'commander' && agentContext) {
      // A defined agent keeps its context across its turns; a worker's lives as long as its run.
      const holder = spec.profile.kind === 'agent' && !spec.worker ? spec.profile.definition.name : undefined;
      const context = await agentContext(holder, options.model.id);
      if (context) options = { ...options, environment: { ...options.environment, context } };
    }
    return meta.searchOnly ? searchOnlyTurn(options, system) : options;
  }

  /** A model turn, or an external agent's command (a definition with `command:`) run through the same gate. */
  run(options: TurnOptions): AsyncIterable<EngineEvent> {
    return options.external ? runExternalTurn(options, options.external) : this.parts.engine.runTurn(options);
  }

  /** Makes the next turn build its system prompt and recall memory anew. */
  refreshPrompts(): void {
    this.prompts.refresh();
  }

  /** Forgets the model client; the next turn builds one for `meta.model`. */
  dropModelClient(): void {
    this.model = undefined;
  }

  private modelClient(): ModelClient {
    const { meta, modelFactory, clock } = this.parts;
    this.model ??= modelFactory(meta.model, { clock, onEvent: (event) => this.parts.emit(event) });
    return this.model;
  }
}

/**
 * Search only (the "globe" toggle): web_search is the one tool offered, MCP and skill tools
 * included in the cut, and the prompt is the session's own (`system`, which names web_search
 * alone), without the skills' and agents' sections the turn steps added for tools it lacks.
 */
function searchOnlyTurn(options: TurnOptions, system: string): TurnOptions {
  const { dynamicTools: _dropped, ...environment } = options.environment;
  return { ...options, prompt: { ...options.prompt, system }, environment: { ...environment, tools: environment.tools.filter(isSearchTool) } };
}

/** What a system prompt depends on besides the workspace: the tools named in it, and which of them wait for setting up. */
function promptKey(tools: readonly TurnEnvironment['tools'][number][], services: ToolServices): string {
  return tools.map((t) => (isOffered(t, services) ? t.name : `${t.name}?`)).join(',');
}

/** A search-only turn offers the web search tool alone. */
function isSearchTool(tool: { name: string }): boolean {
  return tool.name === webSearchTool.name;
}
