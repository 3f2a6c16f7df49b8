import type { Logger } from 'pino';
import type { EventBody, Role, SessionEvent, SessionInfo, SessionStatus, ShareRole } from '@tandem/shared';
import { join } from 'node:path';
import type { AgentRegistry, EngineEvent, ToolServices, TurnEnvironment } from '@tandem/core';
import type { Clock, Message } from '@tandem/ai';
import type { AgentSlices } from '../agents/agent-slices.js';
import { LedgerFile } from '../agents/ledger-file.js';
import { SessionAgents } from '../agents/session-agents.js';
import { ConflictError, NotFoundError } from '../errors/domain-errors.js';
import type { ModelFactory, SessionEngine } from './engine.js';
import { PartialText } from './partial-text.js';
import { Presence } from './presence.js';
import { PresencePace } from './presence-pace.js';
import type { SessionBase } from './session-base.js';
import type { HostEnvironment, SessionRunner } from './session-environment.js';
import type { SessionMeta } from './session-index.js';
import type { SessionLog } from './session-log.js';
import { SessionTurns } from './session-turns.js';
import { TurnPlanner } from './turn-planner.js';
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

/** What the session learned from its log at load time. */
export interface LoadedState {
  lastSeq: number;
  granted: string[];
  /** Already fed with every event of the log: each agent's conversation and the floor. */
  conversation: AgentSlices;
}

/**
 * One live session: who is attached, its turns (their one owner, `turns`: send, cancel,
 * maintenance), typed input, grants and undo. Its events go through one pipeline (see
 * `EventPipeline`, its subscribers in `sessionSubscribers`); its environment — everything a turn
 * runs with — is built once when it opens and never changes, and handed to its turns' owner.
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
  /** The one owner of the session's turns: starts, feeds (steering) and ends them; maintenance waits for them. */
  readonly turns: SessionTurns;
  /** The text streamed so far in each current reply (a `visible` subscriber of the pipeline). */
  readonly partial = new PartialText();
  /** Each turn's options (the frozen prompt, the model client) and what runs it. */
  private readonly planner: TurnPlanner;
  private closed = false;

  constructor(private readonly parts: SessionParts) {
    const { base, host, clock, logger } = parts;
    this.environment = {
      sessionId: base.id,
      cwd: base.meta.cwd,
      tools: parts.tools,
      runner: host.runner,
      paths: base.paths,
      baselines: parts.engine.createBaselines(),
      services: host.services,
      clock,
      ...(host.gate ? { gate: host.gate } : {}),
      ...(parts.limits ? { limits: parts.limits } : {}),
      ...(host.context ? { context: host.context } : {}),
    };
    // What turns and dispatched runs emit: a command's tool_call says which OS sandbox it runs in.
    const emit = (body: EventBody | EngineEvent) => base.emit(withSandbox(body, host.sandbox));
    this.planner = new TurnPlanner({
      meta: base.meta,
      environment: this.environment,
      host,
      engine: parts.engine,
      modelFactory: parts.modelFactory,
      clock,
      emit,
    });
    const ledger = new LedgerFile(join(base.dir, 'ledger.json'), logger);
    base.onClose(() => ledger.flushed());
    this.agents = new SessionAgents({
      registry: parts.agents.registry,
      slices: base.conversation,
      ledger,
      clock,
      emit,
      planner: this.planner,
      modelFactory: (spec, onEvent) => parts.modelFactory(spec, { clock, onEvent }),
      turns: base,
      concurrency: parts.agents.concurrency,
      timeLimitMs: parts.agents.timeLimitMs,
    });
    this.turns = new SessionTurns({
      sessionId: base.id,
      planner: this.planner,
      agents: this.agents,
      conversation: base.conversation,
      runner: host.runner,
      emit,
      clock,
      logger,
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
    return this.turns.exclusive('undo', async () => {
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

  /** Makes the next turn build its system prompt and recall memory anew (AGENTS.md or memory changed and should count now). */
  reloadPrompt(): void {
    this.planner.refreshPrompts();
  }

  /** Forgets the model client; the next turn builds one for `meta.model` (a model switch, a changed config.json). */
  dropModelClient(): void {
    this.planner.dropModelClient();
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
    await this.turns.stop(graceMs);
    await this.parts.base.runClosers(this.parts.logger);
    await this.parts.base.pipeline.close();
  }
}

/** A command's tool_call (a tool of kind `execute`: run_command, skill commands) says which OS sandbox it runs in. */
function withSandbox<T extends EventBody | EngineEvent>(body: T, sandbox: string | undefined): T {
  if (body.type !== 'tool_call' || !sandbox || body.kind !== 'execute') return body;
  return { ...body, sandbox };
}
