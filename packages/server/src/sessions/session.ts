import { join } from 'node:path';
import type { Logger } from 'pino';
import { EPHEMERAL_EVENT_TYPES, type EventBody, type Role, type SessionEvent, type SessionInfo, type SessionStatus } from '@tandem/shared';
import type {
  AnyTool,
  Clock,
  CommandRunner,
  EngineEvent,
  FileBaselines,
  Message,
  ModelClient,
  ToolGate,
  ToolServices,
  TurnLimits,
  TurnOptions,
} from '@tandem/core';
import { CommandError } from '../handlers/command-error.js';
import type { ConversationFold, GrantablePaths, ModelFactory, SessionEngine } from './engine.js';
import { PartialText } from './partial-text.js';
import { Presence } from './presence.js';
import type { SessionMeta } from './session-index.js';
import type { SessionLog } from './session-log.js';
import { SessionTurn, TURN_END_TYPES, type TurnRequest } from './session-turn.js';

/** The runner a session uses; the pty runner also accepts typed input and can kill everything. */
export interface SessionRunner extends CommandRunner {
  write?(callId: string, data: string): boolean;
  /** Resolves once a command with this call id is running (the pty exists and takes input). */
  whenRunning?(callId: string, signal?: AbortSignal): Promise<void>;
  killAll?(): Promise<void>;
}

export interface SessionHooks {
  /** Every persisted event, after it is in the log (audit recording, metrics). */
  onEvent?(session: Session, event: SessionEvent): void;
  /** Each tool result, for the audit log. */
  onToolResult?(session: Session, event: Extract<SessionEvent, { type: 'tool_result' }>): void;
}

export interface SessionParts {
  meta: SessionMeta;
  /** `<dataDir>/sessions/<id>`. */
  dir: string;
  dataDir: string;
  home: string;
  engine: SessionEngine;
  modelFactory: ModelFactory;
  tools: AnyTool[];
  clock: Clock;
  limits?: Partial<TurnLimits> | undefined;
  /** Per-turn extras (context, memory) added by the host. */
  extendTurn?: ((session: Session, options: TurnOptions) => TurnOptions | Promise<TurnOptions>) | undefined;
  logger: Logger;
  hooks: SessionHooks;
  /** Sends an event to every socket attached to this session. */
  broadcast(event: SessionEvent): void;
}

/** What the session learned from its log at load time. */
export interface LoadedState {
  lastSeq: number;
  granted: string[];
  /** Already fed with every event of the log. */
  conversation: ConversationFold;
}

/**
 * One live session: its event log (the source of truth), who is attached, the running turn,
 * and the per-session tool plumbing (runner, sandbox, baselines). Every event goes through
 * `emit`, which stamps seq and time and queues it in the log; it is broadcast once its line is
 * written (durable before visible; see `visible`).
 */
export class Session {
  readonly log: SessionLog;
  readonly presence = new Presence();
  private lastSeq: number;
  private readonly partial = new PartialText();
  private turn: SessionTurn | undefined;
  private pendingPermissions = 0;
  /** Tool calls announced and not yet answered: resolves when the call ends (for early command input). */
  private readonly callsInFlight = new Map<string, Promise<void>>();
  private readonly callEnds = new Map<string, () => void>();
  private readonly conversation: ConversationFold;
  private readonly paths: GrantablePaths;
  private readonly baselines: FileBaselines;
  private model: ModelClient | undefined;
  private closed = false;
  private logClosed = false;
  /** What maintenance (compaction, `/new`) runs now, if any; no turn may start meanwhile. */
  private busy: string | undefined;
  private readonly closing = new AbortController();
  private readonly closers: Array<() => Promise<void>> = [];
  /** Filled in by the application once the session exists (they may need the session). */
  runner!: SessionRunner;
  gate: ToolGate | undefined;
  services: ToolServices = {};
  /** The OS sandbox around this session's commands, as SessionInfo.sandbox shows it. */
  sandbox: string | undefined;
  /** Directories granted with `sandbox:grant` (at load and since), resolved. */
  private readonly grantedDirs: string[];

  constructor(
    private readonly parts: SessionParts,
    log: SessionLog,
    loaded: LoadedState,
  ) {
    this.log = log;
    this.lastSeq = loaded.lastSeq;
    log.onVisible((event) => this.visible(event));
    this.conversation = loaded.conversation;
    this.paths = parts.engine.createPaths({ workspace: parts.meta.cwd, granted: loaded.granted, dataDir: parts.dataDir, home: parts.home });
    this.grantedDirs = [...loaded.granted];
    this.baselines = parts.engine.createBaselines();
  }

  get id(): string {
    return this.parts.meta.id;
  }

  get meta(): SessionMeta {
    return this.parts.meta;
  }

  get dir(): string {
    return this.parts.dir;
  }

  get commandLogDir(): string {
    return join(this.parts.dir, 'commands');
  }

  get status(): SessionStatus {
    if (!this.turn) return 'idle';
    return this.pendingPermissions > 0 ? 'waiting_permission' : 'running';
  }

  /** A copy of the model conversation as the log describes it (for memory consolidation, compaction). */
  conversationSnapshot(): Message[] {
    return this.conversation.messages;
  }

  info(): SessionInfo {
    const { id, title, cwd, model, createdAt, mode } = this.parts.meta;
    return {
      id,
      title,
      cwd,
      model,
      createdAt,
      status: this.status,
      lastSeq: this.log.lastWrittenSeq,
      mode: mode ?? 'ask',
      clients: this.presence.list().length,
      ...(this.sandbox ? { sandbox: this.sandbox } : {}),
      ...(this.parts.meta.searchOnly ? { searchOnly: true } : {}),
    };
  }

  /**
   * Stamps one event and queues it in the log; it is broadcast once written (`visible`). An
   * ephemeral event (a `text_delta`) carries the seq of the persisted event before it and is
   * broadcast right behind that one, never before it.
   *
   * The session's own state (the conversation fold, pending permissions, the end of the turn)
   * follows the stamped order at once: it is the log's order, so it matches the log once the
   * batch is written, and the turn loop never waits on the disk. What other parties see — the
   * broadcast, replays, the partial reply, the hooks (audit) — follows the written order.
   */
  emit(body: EventBody | EngineEvent): SessionEvent {
    const ts = new Date(this.parts.clock.now()).toISOString();
    if (EPHEMERAL_EVENT_TYPES.has(body.type)) {
      const event = { sessionId: this.id, seq: this.lastSeq, ts, ephemeral: true, ...body } as SessionEvent;
      this.log.send(event);
      return event;
    }
    const event = { sessionId: this.id, seq: this.lastSeq + 1, ts, ...withSandbox(body, this.sandbox) } as SessionEvent;
    if (this.logClosed) {
      // Only an engine that ignored the shutdown gets here; the log is final by now.
      this.parts.logger.warn({ sessionId: this.id, type: body.type }, 'event after the session closed; dropped');
      return event;
    }
    this.lastSeq = event.seq;
    const endsTurn = TURN_END_TYPES.has(event.type);
    // A turn's end is worth an fdatasync (after the batch is written; it holds nothing back).
    this.log.append(event, endsTurn);
    this.conversation.apply(event);
    this.track(event);
    const turn = this.turn;
    if (turn && endsTurn && (event as { turnId?: string }).turnId === turn.turnId) this.endTurn(turn);
    return event;
  }

  /** Flushes the log: resolves once every event emitted so far is written and broadcast. */
  flushed(): Promise<void> {
    return this.log.flush();
  }

  /** An event whose line is written (or an ephemeral one whose predecessors are): now others see it. */
  private visible(event: SessionEvent): void {
    this.partial.observe(event);
    if (!event.ephemeral) this.runHooks(event);
    this.parts.broadcast(event);
  }

  /** The text broadcast so far in the current reply, as one ephemeral `text_delta`, if any. */
  partialTextEvent(): SessionEvent | undefined {
    const partial = this.partial.current();
    if (!partial) return undefined;
    const ts = new Date(this.parts.clock.now()).toISOString();
    return { sessionId: this.id, seq: this.log.lastWrittenSeq, ts, ephemeral: true, type: 'text_delta', turnId: partial.turnId, delta: partial.text };
  }

  attachClient(socketId: string, name: string, role: Role): void {
    this.presence.attach(socketId, name, role);
    this.emit({ type: 'presence', clients: this.presence.list() });
  }

  detachClient(socketId: string): boolean {
    if (!this.presence.detach(socketId)) return false;
    if (!this.closed) this.emit({ type: 'presence', clients: this.presence.list() });
    return true;
  }

  /** Aborts when the session starts closing (for work outside a turn, e.g. a compaction). */
  get closingSignal(): AbortSignal {
    return this.closing.signal;
  }

  /**
   * Runs maintenance on the conversation (`session:compact`, `session:new`) while no turn runs.
   * Refused with `conflict` during a turn or other maintenance; messages sent meanwhile are
   * refused too, so the conversation cannot change under it.
   */
  async exclusive<T>(what: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.closed) throw new CommandError('conflict', `session ${this.id} is shutting down`);
    if (this.turn) throw new CommandError('conflict', `cannot ${what} while a turn is running; wait for it to end or cancel it first`);
    if (this.busy) throw new CommandError('conflict', `cannot ${what} now: the session is busy (${this.busy}); try again when that finishes`);
    this.busy = what;
    try {
      return await fn(this.closing.signal);
    } finally {
      this.busy = undefined;
    }
  }

  /** A driver's message: starts a turn when idle, otherwise steers the running one. */
  send(text: string, by: string): 'turn' | 'steer' {
    if (this.closed) throw new CommandError('conflict', `session ${this.id} is shutting down`);
    if (this.busy) throw new CommandError('conflict', `the session is busy (${this.busy}); send your message again when that finishes`);
    if (this.turn) {
      this.turn.steer({ text, by });
      return 'steer';
    }
    this.startTurn(text, by);
    return 'turn';
  }

  cancel(): boolean {
    if (!this.turn) return false;
    this.turn.cancel();
    return true;
  }

  /** Types into a running command of this session and tells every client who typed what. */
  async input(callId: string, data: string, by: string): Promise<void> {
    let written = this.runner.write?.(callId, data) ?? false;
    // The call was announced but its pty is not up yet (a person typed right after the approval):
    // hold the input until the command runs, or drop it if the call ends without running.
    const ended = this.callsInFlight.get(callId);
    if (!written && ended && this.runner.whenRunning) {
      const gaveUp = new AbortController();
      const started = await Promise.race([this.runner.whenRunning(callId, gaveUp.signal).then(() => true), ended.then(() => false)]);
      gaveUp.abort();
      written = started && (this.runner.write?.(callId, data) ?? false);
    }
    if (!written) throw new CommandError('not_found', `no command with call id ${callId} is running in session ${this.id}`);
    this.emit({ type: 'command_input', callId, data, by });
  }

  async grant(path: string, by: string): Promise<string> {
    let granted: string;
    try {
      granted = await this.paths.grant(path);
    } catch (err) {
      throw new CommandError('forbidden', err instanceof Error ? err.message : String(err));
    }
    if (!this.grantedDirs.includes(granted)) this.grantedDirs.push(granted);
    this.emit({ type: 'sandbox_granted', path: granted, by });
    return granted;
  }

  /** Where this session's commands may write: the workspace and every granted directory. */
  writableRoots(): string[] {
    return [this.meta.cwd, ...this.grantedDirs];
  }

  /** What maintenance runs now (`/new`, compaction, clearing), if any. */
  get busyWith(): string | undefined {
    return this.busy;
  }

  /** Forgets the model client; the next turn builds one for `meta.model` (a model switch, a changed config.json). */
  dropModelClient(): void {
    this.model = undefined;
  }

  /** Runs `fn` when the session closes, after the turn stopped and before the log closes. */
  onClose(fn: () => Promise<void>): void {
    this.closers.push(fn);
  }

  /** Stops the running turn (recorded as interrupted), kills its commands, flushes the log. */
  async close(graceMs = 5000): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.closing.abort(new Error('the server is shutting down'));
    const turn = this.turn;
    if (turn) {
      turn.interrupt();
      await Promise.race([turn.done, this.parts.clock.sleep(graceMs).catch(() => undefined)]);
    }
    await this.runner.killAll?.();
    if (turn) {
      await Promise.race([turn.done, this.parts.clock.sleep(1000).catch(() => undefined)]);
      // An engine that did not stop in time: its turn is closed here, whatever it does later.
      turn.abandon();
    }
    for (const fn of this.closers) {
      await fn().catch((err: unknown) => this.parts.logger.error({ err, sessionId: this.id }, 'a close step failed'));
    }
    this.logClosed = true;
    await this.log.close();
  }

  private startTurn(text: string, by: string): void {
    // The loop appends the user's message itself: it gets the conversation as it was before it.
    const before = this.conversation.messages;
    this.emit({ type: 'user_message', text, by, mode: 'turn' });
    const turn = new SessionTurn(
      {
        emit: (event) => this.emit(event),
        turnOptions: (t) => this.turnOptions(t, before),
        runTurn: (options) => this.parts.engine.runTurn(options),
        logger: this.parts.logger,
      },
      text,
      by,
    );
    this.turn = turn;
    // Normally the terminal event ends the turn (in emit); this covers a turn that failed before it started.
    void turn.done.catch((err: unknown) => this.parts.logger.error({ err, sessionId: this.id }, 'turn pump failed')).then(() => this.endTurn(turn));
  }

  /**
   * The session is idle again as soon as the turn's terminal event is out, so a message sent in
   * reaction to it starts a new turn. Steering that arrived too late to be folded in starts one too.
   */
  private endTurn(turn: SessionTurn): void {
    if (this.turn !== turn) return;
    this.turn = undefined;
    this.pendingPermissions = 0;
    const left = turn.leftoverSteering();
    if (left.length > 0 && !this.closed) {
      this.startTurn(left.map((m) => m.text).join('\n\n'), left.map((m) => m.by).join(', '));
    }
  }

  private async turnOptions(t: TurnRequest, conversation: Message[]): Promise<TurnOptions> {
    const model = this.modelClient();
    const system = await this.parts.engine.systemPrompt({ cwd: this.meta.cwd, tools: this.parts.tools, now: new Date(this.parts.clock.now()) });
    const options: TurnOptions = {
      sessionId: this.id,
      turnId: t.turnId,
      // The loop works on a copy; the session's own conversation follows the events it emits.
      conversation,
      userText: t.text,
      userName: t.by,
      system,
      model,
      tools: this.parts.tools,
      cwd: this.meta.cwd,
      runner: this.runner,
      paths: this.paths,
      baselines: this.baselines,
      services: this.services,
      gate: this.gate,
      clock: this.parts.clock,
      ...(this.parts.limits ? { limits: this.parts.limits } : {}),
      signal: t.signal,
      takeSteering: t.takeSteering,
    };
    const extended = this.parts.extendTurn ? await this.parts.extendTurn(this, options) : options;
    return this.meta.searchOnly ? searchOnlyTurn(extended) : extended;
  }

  private modelClient(): ModelClient {
    this.model ??= this.parts.modelFactory(this.meta.model, { clock: this.parts.clock, onEvent: (event) => this.emit(event) });
    return this.model;
  }

  private track(event: SessionEvent): void {
    if (event.type === 'tool_call') {
      let end!: () => void;
      const ended = new Promise<void>((resolve) => (end = resolve));
      this.callsInFlight.set(event.callId, ended);
      this.callEnds.set(event.callId, end);
    } else if (event.type === 'tool_result') {
      this.callEnds.get(event.callId)?.();
      this.callEnds.delete(event.callId);
      this.callsInFlight.delete(event.callId);
    } else if (TURN_END_TYPES.has(event.type)) {
      // A call that never got a result (cancel, interruption) ends with its turn.
      for (const end of this.callEnds.values()) end();
      this.callEnds.clear();
      this.callsInFlight.clear();
    }
    if (event.type === 'permission_request') this.pendingPermissions++;
    else if (event.type === 'permission_resolved') this.pendingPermissions = Math.max(0, this.pendingPermissions - 1);
  }

  private runHooks(event: SessionEvent): void {
    const { hooks, logger } = this.parts;
    try {
      hooks.onEvent?.(this, event);
      if (event.type === 'tool_result') hooks.onToolResult?.(this, event);
    } catch (err) {
      logger.error({ err, sessionId: this.id, seq: event.seq }, 'a session hook failed');
    }
  }
}

/** Search only (the "globe" toggle): web_search is the one tool offered, MCP and skill tools included in the cut. */
function searchOnlyTurn(options: TurnOptions): TurnOptions {
  const { dynamicTools: _dropped, ...rest } = options;
  return { ...rest, tools: options.tools.filter((t) => t.name === 'web_search') };
}

/** A command's tool_call says which OS sandbox it runs in (run_command, skill commands). */
function withSandbox(body: EventBody | EngineEvent, sandbox: string | undefined): EventBody | EngineEvent {
  if (body.type !== 'tool_call' || !sandbox || !(body.tool === 'run_command' || body.tool.startsWith('skill__'))) return body;
  return { ...body, sandbox };
}
