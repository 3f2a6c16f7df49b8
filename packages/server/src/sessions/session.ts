import type { Logger } from 'pino';
import type { EventBody, Role, SessionEvent, SessionInfo, SessionStatus, ShareRole } from '@tandem/shared';
import { join } from 'node:path';
import {
  type AgentRegistry,
  type Clock,
  COMMANDER,
  type EngineEvent,
  isOffered,
  type Message,
  type ModelClient,
  runExternalTurn,
  type SteeringMessage,
  type ToolServices,
  type TurnEnvironment,
  type TurnLimits,
  type TurnOptions,
  webSearchTool,
} from '@tandem/core';
import type { AgentSlices } from '../agents/agent-slices.js';
import { type AgentProfile, shapeAgentTurn, toolsOfProfile } from '../agents/agent-turn.js';
import { LedgerFile } from '../agents/ledger-file.js';
import { SessionAgents } from '../agents/session-agents.js';
import { ConflictError, NotFoundError } from '../errors/domain-errors.js';
import type { ModelFactory, SessionEngine } from './engine.js';
import { FrozenPrompts } from './frozen-prompts.js';
import { PartialText } from './partial-text.js';
import { Presence } from './presence.js';
import { PresencePace } from './presence-pace.js';
import type { SessionBase } from './session-base.js';
import type { HostEnvironment, SessionRunner } from './session-environment.js';
import type { SessionMeta } from './session-index.js';
import type { SessionLog } from './session-log.js';
import { TurnRunner } from './turn-runner.js';
import type { SessionCheckpoints, UndoResult } from '../checkpoints/session-checkpoints.js';

export type { SessionRunner } from './session-environment.js';

export interface SessionHooks {
  /** Every persisted event, after it is in the log (audit recording, metrics). */
  onEvent?(session: Session, event: SessionEvent): void;
  /** Each tool result, for the audit log. */
  onToolResult?(session: Session, event: Extract<SessionEvent, { type: 'tool_result' }>): void;
}

export interface SessionParts {
  base: SessionBase;
  /** What the host built for this session (runner, gate, services, context, turn steps). */
  host: HostEnvironment;
  engine: Pick<SessionEngine, 'runTurn' | 'systemPrompt' | 'createBaselines' | 'listModels'>;
  modelFactory: ModelFactory;
  tools: TurnEnvironment['tools'];
  clock: Clock;
  limits?: TurnEnvironment['limits'] | undefined;
  /** The workspace's agent definitions, and how many dispatched agents run at once. */
  agents: { registry: AgentRegistry; concurrency?: number | undefined; timeLimitMs?: number | undefined };
  logger: Logger;
}

/** What one turn is built from (a worker's has no steering and an empty conversation). */
interface TurnSpec {
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

/** What the session learned from its log at load time. */
export interface LoadedState {
  lastSeq: number;
  granted: string[];
  /** Already fed with every event of the log: each agent's conversation and the floor. */
  conversation: AgentSlices;
}

/**
 * One live session: who is attached, its turns, maintenance, and what it offers commands
 * (send, cancel, input, grant). Its events go through one pipeline (see `EventPipeline`); its
 * environment — everything a turn runs with — is built once when it opens and never changes.
 */
export class Session {
  readonly presence = new Presence();
  /** When the presence list goes out (paced for a large audience). */
  private readonly presencePace = new PresencePace(() => {
    if (!this.closed) this.emit({ type: 'presence', clients: this.presence.list() });
  });
  /** The engine environment every turn of this session starts from. */
  readonly environment: TurnEnvironment & { runner: SessionRunner };
  /** The commander, the defined agents and their workers; the floor. */
  readonly agents: SessionAgents;
  private readonly partial = new PartialText();
  /** The system prompt and memory, frozen for the session so every request starts with the same bytes. */
  private readonly prompts = new FrozenPrompts();
  private readonly turns: TurnRunner;
  private model: ModelClient | undefined;
  private closed = false;
  /** What maintenance (compaction, `/new`) runs now, if any; no turn may start meanwhile. */
  private busy: string | undefined;
  private readonly closing = new AbortController();
  /** Warnings about agents' models already said in this session (each is said once). */
  private readonly warned = new Set<string>();

  constructor(private readonly parts: SessionParts) {
    const { base, host } = parts;
    this.environment = {
      sessionId: base.id,
      cwd: base.meta.cwd,
      tools: parts.tools,
      runner: host.runner,
      paths: base.paths,
      baselines: parts.engine.createBaselines(),
      services: host.services,
      clock: parts.clock,
      ...(host.gate ? { gate: host.gate } : {}),
      ...(parts.limits ? { limits: parts.limits } : {}),
      ...(host.context ? { context: host.context } : {}),
    };
    const ledger = new LedgerFile(join(base.dir, 'ledger.json'), parts.logger);
    base.onClose(() => ledger.flushed());
    this.agents = new SessionAgents({
      registry: parts.agents.registry,
      slices: base.conversation,
      ledger,
      clock: parts.clock,
      emit: (body) => this.emit(withSandbox(body, host.sandbox)),
      turnOptions: (spec) => this.turnOptions(spec),
      runTurn: (options) => this.runTurn(options),
      modelFactory: (spec, onEvent) => parts.modelFactory(spec, { clock: parts.clock, onEvent }),
      currentTurnId: () => this.turns.current?.turnId,
      concurrency: parts.agents.concurrency,
      timeLimitMs: parts.agents.timeLimitMs,
    });
    this.turns = new TurnRunner({
      emit: (body) => this.emit(withSandbox(body, host.sandbox)),
      conversation: (agent) => (agent === COMMANDER ? base.conversation.messages : this.agents.conversationOf(agent)),
      turnOptions: (request, conversation) => this.turnOptions({ ...request, conversation, profile: this.agents.profileOf(request.agent) }),
      afterTurn: (ended) => this.agents.afterTurn(ended),
      runTurn: (options) => this.runTurn(options),
      clock: parts.clock,
      logger: parts.logger,
    });
    base.pipeline.onStamped(this.turns.observe);
    // A key added to config.json (or the secret store) after an auth failure counts from the next turn.
    base.pipeline.onStamped((event) => {
      if (event.type === 'agent_error' && event.code === 'auth') this.dropModelClient();
    });
    base.pipeline.onVisible((event) => this.partial.observe(event));
    // A fresh conversation (`/new`, `/clear`) starts from a fresh prompt: AGENTS.md, the date and memory read again.
    base.pipeline.onStamped((event) => {
      if (event.type === 'conversation_cleared') this.prompts.refresh();
    });
  }

  get id(): string {
    return this.parts.base.id;
  }

  get meta(): SessionMeta {
    return this.parts.base.meta;
  }

  get dir(): string {
    return this.parts.base.dir;
  }

  get log(): SessionLog {
    return this.parts.base.log;
  }

  get commandLogDir(): string {
    return this.parts.base.commandLogDir;
  }

  /** The services the session's tools reach (typed per tool). */
  get services(): ToolServices {
    return this.parts.host.services;
  }

  /** The OS sandbox around this session's commands, as SessionInfo.sandbox shows it. */
  get sandbox(): string | undefined {
    return this.parts.host.sandbox;
  }

  get status(): SessionStatus {
    if (!this.turns.running) return 'idle';
    return this.parts.base.calls.pendingPermissions > 0 ? 'waiting_permission' : 'running';
  }

  /** A copy of the model conversation as the log describes it (for memory consolidation, compaction). */
  conversationSnapshot(): Message[] {
    return this.parts.base.conversation.messages;
  }

  info(): SessionInfo {
    const { id, title, cwd, model, createdAt, mode, searchOnly } = this.meta;
    return {
      id,
      title,
      cwd,
      model,
      createdAt,
      status: this.status,
      lastSeq: this.log.lastWrittenSeq,
      updatedAt: this.log.lastWrittenTs ?? createdAt,
      mode: mode ?? 'ask',
      clients: this.presence.list().length,
      ...(this.sandbox ? { sandbox: this.sandbox } : {}),
      ...(searchOnly ? { searchOnly: true } : {}),
      floor: this.agents.floor,
      agents: this.agents.definitions().map(({ name, description, interactive }) => ({ name, description, interactive })),
    };
  }

  /** Stamps one event and sends it down the session's pipeline (see `EventPipeline.emit`). */
  emit(body: EventBody | EngineEvent): SessionEvent {
    return this.parts.base.emit(body);
  }

  /** Flushes the log: resolves once every event emitted so far is written and broadcast. */
  flushed(): Promise<void> {
    return this.parts.base.pipeline.flushed();
  }

  /** The text broadcast so far in each current reply (the turn's and its workers'), one ephemeral `text_delta` each. */
  partialTextEvents(): SessionEvent[] {
    const ts = new Date(this.parts.clock.now()).toISOString();
    const seq = this.log.lastWrittenSeq;
    return this.partial
      .current()
      .map(({ turnId, text, ...speaker }) => ({ sessionId: this.id, seq, ts, ephemeral: true, type: 'text_delta', turnId, delta: text, ...speaker }));
  }

  attachClient(socketId: string, name: string, role: Role, shareRole?: ShareRole): void {
    this.presence.attach(socketId, name, role, shareRole);
    this.presencePace.changed(this.presence.size);
  }

  detachClient(socketId: string): boolean {
    if (!this.presence.detach(socketId)) return false;
    this.presencePace.changed(this.presence.size);
    return true;
  }

  /** Aborts when the session starts closing (for work outside a turn, e.g. a compaction). */
  get closingSignal(): AbortSignal {
    return this.closing.signal;
  }

  /**
   * Runs maintenance on the conversation (`session:compact`, `session:new`) while no turn runs.
   * Refused (a conflict) during a turn or other maintenance; messages sent meanwhile are
   * refused too, so the conversation cannot change under it.
   */
  async exclusive<T>(what: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.closed) throw new ConflictError(`session ${this.id} is shutting down`);
    if (this.turns.running) throw new ConflictError(`cannot ${what} while a turn is running; wait for it to end or cancel it first`);
    if (this.busy) throw new ConflictError(`cannot ${what} now: the session is busy (${this.busy}); try again when that finishes`);
    this.busy = what;
    try {
      return await fn(this.closing.signal);
    } finally {
      this.busy = undefined;
    }
  }

  /**
   * A driver's message: steers the running turn, or starts a turn for the agent it is for (the
   * floor holder, or `@NAME`; `@commander` alone only takes the floor back). `limits` apply to
   * the turn it starts (a headless run's `--max-iterations`), not to a turn it steers.
   */
  send(text: string, by: string, limits: Partial<TurnLimits> = {}): 'turn' | 'steer' {
    if (this.closed) throw new ConflictError(`session ${this.id} is shutting down`);
    if (this.busy) throw new ConflictError(`the session is busy (${this.busy}); send your message again when that finishes`);
    const running = this.turns.current;
    if (running) return this.turns.send(text, by, running.agent);
    const route = this.agents.route(text, by);
    if ('floorOnly' in route) return 'turn';
    return this.turns.send(route.text, route.by, route.agent, limits);
  }

  /** The running turn's id, if a turn runs (right after `send`: the turn it started or steers). */
  get currentTurnId(): string | undefined {
    return this.turns.current?.turnId;
  }

  /** The one stop path: the running turn, every agent and worker it started, their commands. */
  cancel(): boolean {
    this.agents.cancelled();
    return this.turns.cancel();
  }

  /** Types into a running command of this session and tells every client who typed what. */
  async input(callId: string, data: string, by: string): Promise<void> {
    const { runner } = this.environment;
    let written = runner.write?.(callId, data) ?? false;
    // The call was announced but its pty is not up yet (a person typed right after the approval):
    // hold the input until the command runs, or drop it if the call ends without running.
    const ended = this.parts.base.calls.whenEnded(callId);
    if (!written && ended && runner.whenRunning) {
      const gaveUp = new AbortController();
      const started = await Promise.race([runner.whenRunning(callId, gaveUp.signal).then(() => true), ended.then(() => false)]);
      gaveUp.abort();
      written = started && (runner.write?.(callId, data) ?? false);
    }
    if (!written) throw new NotFoundError(`no command with call id ${callId} is running in session ${this.id}`);
    this.emit({ type: 'command_input', callId, data, by });
  }

  grant(path: string, by: string, options: { write?: boolean } = {}): Promise<string> {
    return this.parts.base.grant(path, by, options);
  }

  /** The session's checkpoints (undo, diff, rewind); undefined when they are off. */
  get checkpoints(): SessionCheckpoints | undefined {
    return this.parts.host.checkpoints;
  }

  /** Why checkpoints are off, when they are. */
  get checkpointsOff(): string | undefined {
    return this.parts.host.checkpointsOff;
  }

  /**
   * `session:undo`: while no turn runs, puts back the files of the last `turns` turns and takes
   * the conversation back to before them; everyone attached sees the `undo` event.
   */
  async undo(turns: number, by: string): Promise<UndoResult> {
    const checkpoints = this.parts.host.checkpoints;
    if (!checkpoints)
      throw new ConflictError(`checkpoints are off for this server (${this.parts.host.checkpointsOff ?? 'unknown reason'}); nothing can be undone`);
    return this.exclusive('undo', async () => {
      const result = await checkpoints.undo(turns);
      this.emit({ type: 'undo', turns, files: result.files, by, turnIds: result.turnIds, conflicts: result.conflicts });
      await this.flushed();
      return result;
    });
  }

  /** Protected locations granted write for this session (`sandbox:grant { write: true }`). */
  writeGrants(): string[] {
    return this.parts.base.writeGrants();
  }

  /** Where this session's commands may write: the workspace and every granted directory. */
  writableRoots(): string[] {
    return this.parts.base.writableRoots();
  }

  /** What maintenance runs now (`/new`, compaction, clearing), if any. */
  get busyWith(): string | undefined {
    return this.busy;
  }

  /** Makes the next turn build its system prompt and recall memory anew (AGENTS.md or memory changed and should count now). */
  reloadPrompt(): void {
    this.prompts.refresh();
  }

  /** Forgets the model client; the next turn builds one for `meta.model` (a model switch, a changed config.json). */
  dropModelClient(): void {
    this.model = undefined;
  }

  /** Runs `fn` when the session closes, after the turn stopped and before the log closes. */
  onClose(fn: () => Promise<void>): void {
    this.parts.base.onClose(fn);
  }

  /** Stops the running turn (recorded as interrupted), kills its commands, flushes the log. */
  async close(graceMs = 5000): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.presencePace.stop();
    this.closing.abort(new Error('the server is shutting down'));
    await this.turns.stop(graceMs, async () => this.environment.runner.killAll?.());
    await this.parts.base.runClosers(this.parts.logger);
    await this.parts.base.pipeline.close();
  }

  private async turnOptions(spec: TurnSpec): Promise<TurnOptions> {
    // The prompt names the tools this turn offers: the agent's own, or web_search alone.
    const tools = toolsOfProfile(this.environment.tools, spec.profile);
    const offered = this.meta.searchOnly ? tools.filter(isSearchTool) : tools;
    const services = this.environment.services ?? {};
    // Made once per set of offered tools and kept (the date and AGENTS.md as at the session's first turn).
    const system = await this.prompts.system(promptKey(offered, services), () =>
      this.parts.engine.systemPrompt({ cwd: this.meta.cwd, tools: offered, services, now: new Date(this.parts.clock.now()) }),
    );
    const environment = spec.limits ? { ...this.environment, limits: { ...this.environment.limits, ...spec.limits } } : this.environment;
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
    for (const step of this.parts.host.turnSteps) options = await step(options);
    // The memory section of a conversation is recalled once and kept; a worker's run recalls for its own task.
    const { memory } = options.prompt;
    if (memory && !spec.worker) {
      const holder = spec.profile.kind === 'agent' ? spec.profile.definition.name : COMMANDER;
      options = { ...options, prompt: { ...options.prompt, memory: this.prompts.memory(holder, memory) } };
    }
    const { agents } = this;
    options = shapeAgentTurn(options, spec.profile, {
      agents: agents.definitions(),
      orchestration: agents.orchestration,
      modelFor: (model) => agents.modelFor(model),
      models: () => this.parts.engine.listModels(),
      warn: (model, message) => {
        if (this.warned.has(message)) return;
        this.warned.add(message);
        this.emit({ type: 'model_warning', model, message });
      },
      ...(this.parts.host.bridge ? { bridge: this.parts.host.bridge } : {}),
    });
    if (options.external) return options;
    const { agentContext, evolvingTurn } = this.parts.host;
    if (spec.profile.kind === 'agent' && spec.profile.definition.evolve && evolvingTurn) options = evolvingTurn(options, spec.profile.definition);
    if (spec.profile.kind !== 'commander' && agentContext) {
      // A defined agent keeps its context across its turns; a worker's lives as long as its run.
      const holder = spec.profile.kind === 'agent' && !spec.worker ? spec.profile.definition.name : undefined;
      const context = await agentContext(holder, options.model.id);
      if (context) options = { ...options, environment: { ...options.environment, context } };
    }
    return this.meta.searchOnly ? searchOnlyTurn(options, system) : options;
  }

  /** A model turn, or an external agent's command (a definition with `command:`) run through the same gate. */
  private runTurn(options: TurnOptions): AsyncIterable<EngineEvent> {
    return options.external ? runExternalTurn(options, options.external) : this.parts.engine.runTurn(options);
  }

  private modelClient(): ModelClient {
    this.model ??= this.parts.modelFactory(this.meta.model, { clock: this.parts.clock, onEvent: (event) => this.emit(event) });
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

/** A command's tool_call (a tool of kind `execute`: run_command, skill commands) says which OS sandbox it runs in. */
function withSandbox<T extends EventBody | EngineEvent>(body: T, sandbox: string | undefined): T {
  if (body.type !== 'tool_call' || !sandbox || body.kind !== 'execute') return body;
  return { ...body, sandbox };
}
