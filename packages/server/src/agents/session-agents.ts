import { randomUUID } from 'node:crypto';
import {
  type AgentDefinition,
  type AgentRegistry,
  type AgentRunner,
  type AgentRunRequest,
  type AgentRunResult,
  type AnyTool,
  COMMANDER,
  createLimiter,
  createOrchestrationTools,
  type EngineEvent,
  floorAfterAnswer,
  ledgerResumeNote,
  routeUserMessage,
} from '@tandem/core';
import type { Clock, Message, ModelClient } from '@tandem/ai';
import { InvalidInputError } from '../errors/domain-errors.js';
import { runAgent } from './agent-run.js';
import type { AgentProfile } from './agent-turn.js';
import type { AgentSlices } from './agent-slices.js';
import type { LedgerFile } from './ledger-file.js';
import type { TurnPlanner } from '../sessions/turn-planner.js';

/** A turn the session should run for an agent. */
export interface AgentTurnRequest {
  agent: string;
  text: string;
  by: string;
}

/** What the session gives its agents. */
export interface SessionAgentsParts {
  registry: AgentRegistry;
  slices: AgentSlices;
  ledger: LedgerFile;
  clock: Clock;
  emit(body: EngineEvent): void;
  /** Builds and runs each dispatched run's turn, as it does the session's own turns. */
  planner: TurnPlanner;
  modelFactory(spec: string, onEvent: (event: EngineEvent) => void): ModelClient;
  /** The session's own turn running now (workers' `agent_started` name it): the session's log says. */
  turns: { currentTurnId(): string | undefined };
  /** How many dispatched agents and workers run at once (default 4). */
  concurrency?: number | undefined;
  /** How long one run may take (default 30 minutes). */
  timeLimitMs?: number | undefined;
}

/**
 * A session's agents (SPEC G1–G5): routes user messages by the floor and `@NAME`, runs the
 * commander's dispatches and workers on their own slices (`AgentRunner`), moves the floor on a
 * hand-off and on a strict `<handback />`, and tells the session which turn comes next.
 */
export class SessionAgents implements AgentRunner {
  /** The commander's dispatch_to, run_worker and hand_off_to. */
  readonly orchestration: AnyTool[];
  private readonly models = new Map<string, ModelClient>();
  private handOffTo: { agent: string; message?: string } | undefined;

  constructor(private readonly parts: SessionAgentsParts) {
    this.orchestration = createOrchestrationTools({
      runner: this,
      agents: () => this.definitions(),
      ledger: parts.ledger,
      limiter: createLimiter(parts.concurrency ?? 4),
      clock: parts.clock,
      ...(parts.timeLimitMs ? { timeLimitMs: parts.timeLimitMs } : {}),
    });
  }

  /** The usable definitions now (re-read when their files change). */
  definitions(): readonly AgentDefinition[] {
    return this.parts.registry.current().agents;
  }

  get floor(): string {
    return this.parts.slices.floor;
  }

  /**
   * Who answers a user's message: `@NAME …` that agent, `@commander …` the commander (taking the
   * floor back), otherwise the floor holder. Throws the reason for an unknown name when agents
   * are defined; without definitions only `@commander` is an address.
   */
  route(text: string, by: string): AgentTurnRequest | { floorOnly: true } {
    const names = this.definitions().map((a) => a.name);
    const route = routeUserMessage(text, this.floor, names);
    if (!route.ok) {
      // Without definitions an @word is just text (only @commander is an address then).
      if (names.length === 0) return { agent: this.floor, text, by };
      throw new InvalidInputError(route.message);
    }
    if (route.floor !== this.floor) this.parts.emit({ type: 'floor_changed', agent: route.floor, by });
    if (route.text === '') return { floorOnly: true };
    return { agent: route.agent, text: route.text, by };
  }

  /** What a turn for `agent` is: the commander, a defined agent, or (a definition gone) a plain worker. */
  profileOf(agent: string): AgentProfile {
    if (agent === COMMANDER) return { kind: 'commander' };
    const definition = this.definitions().find((a) => a.name === agent);
    return definition ? { kind: 'agent', definition } : { kind: 'worker' };
  }

  /** An agent's own conversation with the user (the commander's is the session's). */
  conversationOf(agent: string): Message[] {
    return this.parts.slices.messagesOf(agent);
  }

  modelFor(spec: string): ModelClient {
    let model = this.models.get(spec);
    if (!model) {
      model = this.parts.modelFactory(spec, (event) => this.parts.emit(event));
      this.models.set(spec, model);
    }
    return model;
  }

  /** `AgentRunner`: one dispatched agent or worker, on its own slice, to completion. */
  runAgent(request: AgentRunRequest): Promise<AgentRunResult> {
    const profile: AgentProfile = request.definition ? { kind: 'agent', definition: request.definition } : { kind: 'worker' };
    return runAgent(request, {
      emit: (event) => this.parts.emit(event),
      options: (r) =>
        this.parts.planner.options({ turnId: randomUUID(), text: r.task, by: r.parent, signal: r.signal, conversation: [], profile, worker: true }, this),
      runTurn: (options) => this.parts.planner.run(options),
      parentTurnId: this.parts.turns.currentTurnId(),
    });
  }

  /** `AgentRunner`: the floor goes to `agent` now; its first turn runs when the commander's turn ends. */
  async handOff(request: { agent: string; message?: string; by: string }): Promise<void> {
    this.parts.emit({ type: 'floor_changed', agent: request.agent, by: request.by });
    this.handOffTo = { agent: request.agent, ...(request.message ? { message: request.message } : {}) };
  }

  /**
   * After an agent's turn: the turn that follows, if any — the agent the commander handed off to
   * (with the commander's message), or, when the floor holder ended with a strict `<handback />`,
   * the commander again with what happened and its unfinished tasks (the ledger).
   */
  afterTurn(ended: { agent: string; answer: string; answered: boolean }): AgentTurnRequest | undefined {
    if (ended.agent === COMMANDER) {
      const handOff = this.handOffTo;
      this.handOffTo = undefined;
      if (!handOff || this.floor !== handOff.agent) return undefined;
      const text = handOff.message ?? 'The commander handed the conversation to you: answer the user from here.';
      return { agent: handOff.agent, text, by: COMMANDER };
    }
    if (!ended.answered) return undefined;
    const outcome = floorAfterAnswer(this.floor, ended.agent, ended.answer);
    if (!outcome.handedBack) return undefined;
    this.parts.emit({ type: 'floor_changed', agent: COMMANDER, by: ended.agent });
    return { agent: COMMANDER, text: this.resumeNote(ended.agent, outcome.answer), by: ended.agent };
  }

  /** Forgets a hand-off the cancelled turn made. */
  cancelled(): void {
    this.handOffTo = undefined;
  }

  private resumeNote(agent: string, answer: string): string {
    const lines = [`${agent} handed the conversation back to you.`];
    const exchange = digest(this.conversationOf(agent));
    if (exchange) lines.push(`What was said while ${agent} had the floor (most recent last):`, exchange);
    else if (answer) lines.push(`Its last answer: ${answer}`);
    const open = ledgerResumeNote(this.parts.ledger.get());
    if (open) lines.push(open);
    lines.push('Continue from here: tell the user where things stand, or go on with what is unfinished.');
    return lines.join('\n\n');
  }
}

/** The user's and the agent's words (no tool calls) of an agent's slice, the last 4,000 characters. */
function digest(messages: readonly Message[]): string {
  const lines: string[] = [];
  for (const m of messages) {
    if (m.role === 'user') lines.push(`user: ${m.text}`);
    else if (m.role === 'assistant' && m.text) lines.push(`assistant: ${m.text}`);
  }
  const text = lines.join('\n');
  return text.length > 4000 ? `…${text.slice(-3999)}` : text;
}
