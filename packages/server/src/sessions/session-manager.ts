import { randomUUID } from 'node:crypto';
import { rm, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { SessionEvent, SessionInfo } from '@tandem/shared';
import { AgentRegistry, type AnyTool, agentRoots, type EngineEvent, type TurnLimits } from '@tandem/core';
import type { Clock } from '@tandem/ai';
import { AgentSlices } from '../agents/agent-slices.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../errors/domain-errors.js';
import { expireDanglingRequests } from '../permissions/index.js';
import type { ModelFactory, SessionEngine } from './engine.js';
import { loadSessionState } from './load-session-state.js';
import { SessionIndex, type SessionMeta } from './session-index.js';
import { SessionLog } from './session-log.js';
import { SessionBase } from './session-base.js';
import { snapshotPath } from './session-snapshot.js';
import { SessionStateFold } from './session-state-fold.js';
import { SnapshotWriter } from './snapshot-writer.js';
import type { HostEnvironmentFactory } from './session-environment.js';
import { Session, type SessionHooks } from './session.js';
import { sessionSubscribers } from './session-subscribers.js';
import { configureSession, type SessionChanges } from './session-settings.js';
import { SHUTDOWN_REASON } from './shutdown-reason.js';

export interface SessionManagerDeps {
  dataDir: string;
  home: string;
  defaultCwd: string;
  /** A new session's model when the client names none; a function is asked at each create (config.json may have changed). */
  defaultModel: string | (() => string);
  engine: SessionEngine;
  modelFactory: ModelFactory;
  /** Checks a `provider/model` spec at create time; throws a readable error for a bad one. */
  checkModel(spec: string): void;
  /** Warnings to record when a session starts on a model (unknown model, no tools, no key). */
  modelWarnings(spec: string): EngineEvent[];
  toolsFactory(): AnyTool[];
  /** Builds what the host adds to each session (runner, gate, services, context, turn steps). */
  environment: HostEnvironmentFactory;
  clock: Clock;
  logger: Logger;
  limits?: Partial<TurnLimits> | undefined;
  /** How many dispatched agents and workers of one session run at once (default 4), and how long one run may take. */
  agents?: { concurrency?: number | undefined; timeLimitMs?: number | undefined } | undefined;
  hooks: SessionHooks;
  broadcast(sessionId: string, event: SessionEvent): void;
  /** After a session is deleted (the application lets its room go). */
  onDeleted?(sessionId: string): void;
}

export interface CreateSessionInput {
  title?: string | undefined;
  cwd?: string | undefined;
  model?: string | undefined;
  searchOnly?: boolean | undefined;
}

/** Every session of this server: creates, loads (after a restart), finds and closes them. */
export class SessionManager {
  private readonly sessions = new Map<string, Session>();
  private readonly snapshots = new Map<string, SnapshotWriter>();
  /** Each open session's folded state (the snapshot's part), e.g. its usage totals. */
  private readonly states = new Map<string, SessionStateFold>();
  private readonly index: SessionIndex;

  constructor(private readonly deps: SessionManagerDeps) {
    this.index = new SessionIndex(join(deps.dataDir, 'sessions.json'));
  }

  /** Loads every indexed session; a turn left running by a stopped server is closed as interrupted. */
  async loadAll(): Promise<void> {
    let metas: SessionMeta[];
    try {
      metas = await this.index.load();
    } catch (err) {
      throw new Error(`cannot read the session index ${this.index.path}: ${err instanceof Error ? err.message : String(err)}; fix or move the file`);
    }
    for (const meta of metas) {
      try {
        await this.open(meta, false);
      } catch (err) {
        this.deps.logger.error({ err, sessionId: meta.id }, 'could not load a session; it is left out');
      }
    }
  }

  async create(input: CreateSessionInput): Promise<Session> {
    const cwd = resolve(this.deps.defaultCwd, input.cwd ?? '.');
    const isDir = await stat(cwd).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (!isDir) throw new InvalidInputError(`cwd ${cwd} is not a directory on the server`);
    const model = input.model ?? (typeof this.deps.defaultModel === 'function' ? this.deps.defaultModel() : this.deps.defaultModel);
    try {
      this.deps.checkModel(model);
    } catch (err) {
      throw new InvalidInputError(err instanceof Error ? err.message : String(err));
    }
    const meta: SessionMeta = {
      id: randomUUID(),
      title: input.title?.trim() || basename(cwd) || cwd,
      cwd,
      model,
      createdAt: new Date(this.deps.clock.now()).toISOString(),
      ...(input.searchOnly ? { searchOnly: true } : {}),
    };
    await this.index.upsert(meta);
    return this.open(meta, true);
  }

  /**
   * `session:configure`: checks a new model like `create` does, applies the changes (one
   * `session_configured` event) and persists them in the index.
   */
  async configure(id: string, changes: SessionChanges, by: string): Promise<Session> {
    const session = this.require(id);
    if (changes.model !== undefined) {
      try {
        this.deps.checkModel(changes.model);
      } catch (err) {
        throw new InvalidInputError(err instanceof Error ? err.message : String(err));
      }
    }
    const changed = configureSession(session, changes, by);
    if (Object.keys(changed).length > 0) await this.index.upsert(session.meta);
    if (changed.model) for (const warning of this.safeWarnings(changed.model)) session.emit(warning);
    return session;
  }

  /**
   * `session:delete`: refused with `conflict` while a turn or maintenance runs; otherwise the
   * session is closed, dropped from the index, and its directory (log, command logs) removed.
   */
  async delete(id: string): Promise<void> {
    const session = this.require(id);
    if (session.status !== 'idle') {
      throw new ConflictError(`session ${id} is running a turn; cancel it or wait for it to end, then delete it`);
    }
    if (session.turns.busyWith) throw new ConflictError(`session ${id} is busy (${session.turns.busyWith}); try again when that finishes`);
    this.sessions.delete(id);
    await this.snapshots.get(id)?.stop();
    this.snapshots.delete(id);
    this.states.delete(id);
    await session.close();
    // Its checkpoints go with it: the refs in the workspace's shadow repository now, the records with the directory.
    await session.checkpoints?.remove();
    await this.index.remove(id);
    await rm(session.dir, { recursive: true, force: true });
    this.deps.onDeleted?.(id);
  }

  get(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  require(id: string): Session {
    const session = this.sessions.get(id);
    if (!session) throw new NotFoundError(`no session with id ${id}; session:list shows the ones this server has`);
    return session;
  }

  /** What a session's turns used and cost so far, per model and in total (`session:usage`). */
  usage(id: string): ReturnType<SessionStateFold['usage']['current']> {
    this.require(id);
    const state = this.states.get(id);
    if (!state) throw new NotFoundError(`no usage is known for session ${id}`);
    return state.usage.current();
  }

  list(): SessionInfo[] {
    return [...this.sessions.values()].map((s) => s.info()).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  all(): Session[] {
    return [...this.sessions.values()];
  }

  /** `graceMs`: how long a running turn gets to stop before it is closed as interrupted anyway. */
  async closeAll(graceMs?: number): Promise<void> {
    await Promise.all(
      [...this.sessions.values()].map(async (s) => {
        await s.close(graceMs);
        // After the log closed: the next start reads the snapshot and no log at all.
        await this.snapshots.get(s.id)?.finish();
      }),
    );
  }

  private async open(meta: SessionMeta, fresh: boolean): Promise<Session> {
    const { deps } = this;
    const dir = join(deps.dataDir, 'sessions', meta.id);
    const warn = (message: string) => deps.logger.warn({ sessionId: meta.id }, message);
    const log = new SessionLog(join(dir, 'events.jsonl'), warn);
    const loaded = fresh
      ? {
          lastSeq: 0,
          granted: [],
          writeGranted: [],
          conversation: new AgentSlices(() => deps.engine.createConversation()),
          openTurnId: undefined,
          permissionEvents: [],
          stalePresence: false,
          state: new SessionStateFold(),
          snapshotSeq: 0,
        }
      : await loadSessionState(log, deps.engine, snapshotPath(dir), warn);
    const logger = deps.logger.child({ sessionId: meta.id });
    const base = new SessionBase({
      meta,
      dir,
      log,
      conversation: loaded.conversation,
      paths: deps.engine.createPaths({
        workspace: meta.cwd,
        granted: loaded.granted,
        writeGranted: loaded.writeGranted,
        dataDir: deps.dataDir,
        home: deps.home,
      }),
      granted: loaded.granted,
      lastSeq: loaded.lastSeq,
      clock: deps.clock,
      logger,
    });
    let host: Awaited<ReturnType<HostEnvironmentFactory>>;
    try {
      host = await deps.environment(base);
    } catch (err) {
      await base.pipeline.close();
      throw err;
    }
    const session = new Session({
      base,
      host,
      engine: deps.engine,
      modelFactory: deps.modelFactory,
      tools: deps.toolsFactory(),
      agents: { registry: new AgentRegistry(agentRoots({ workspace: meta.cwd, dataDir: deps.dataDir, home: deps.home })), ...deps.agents },
      clock: deps.clock,
      limits: deps.limits,
      logger,
    });
    const snapshots = new SnapshotWriter({
      file: snapshotPath(dir),
      log,
      conversation: loaded.conversation,
      state: loaded.state,
      coveredSeq: loaded.snapshotSeq,
      onProblem: warn,
    });
    base.pipeline.subscribe(sessionSubscribers({ base, host, session, hooks: deps.hooks, broadcast: deps.broadcast, state: loaded.state, snapshots }));
    this.snapshots.set(meta.id, snapshots);
    this.states.set(meta.id, loaded.state);
    this.sessions.set(meta.id, session);
    if (fresh || loaded.lastSeq === 0) {
      // A new session, or one whose log never reached the disk: the log starts with its info.
      session.emit({ type: 'session_info', title: meta.title, cwd: meta.cwd, model: meta.model });
      if (fresh) for (const warning of this.safeWarnings(meta.model)) session.emit(warning);
    } else {
      // Questions asked by a turn that died with the old process can never be answered.
      for (const expired of expireDanglingRequests(loaded.permissionEvents)) session.emit(expired);
      if (loaded.openTurnId) session.emit({ type: 'turn_interrupted', turnId: loaded.openTurnId, reason: SHUTDOWN_REASON });
      // Whoever was attached to the old process is not attached to this one.
      if (loaded.stalePresence) session.emit({ type: 'presence', clients: [] });
    }
    // Those first events are written before anyone is told about the session (its lastSeq counts them).
    await session.flushed();
    // A load that read many events leaves a snapshot behind (in the background), so the next does not.
    snapshots.catchUp();
    return session;
  }

  private safeWarnings(model: string): EngineEvent[] {
    try {
      return this.deps.modelWarnings(model);
    } catch {
      return [];
    }
  }
}
