import { endsTurn } from '@tandem/shared';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { EventBody, SessionEvent } from '@tandem/shared';
import type { Clock } from '@tandem/ai';
import type { EngineEvent } from '@tandem/core';
import type { AgentSlices } from '../agents/agent-slices.js';
import { CallAttribution } from '../agents/call-attribution.js';
import { ForbiddenError } from '../errors/domain-errors.js';
import { CallTracker } from './call-tracker.js';
import type { GrantablePaths } from './engine.js';
import { EventPipeline } from './event-pipeline.js';
import type { SessionHost } from './session-environment.js';
import type { SessionMeta } from './session-index.js';
import type { SessionLog } from './session-log.js';

export interface SessionBaseParts {
  meta: SessionMeta;
  dir: string;
  log: SessionLog;
  /** Already fed with every event of the log: each agent's conversation and the floor. */
  conversation: AgentSlices;
  paths: GrantablePaths;
  /** Directories granted before (from the log). */
  granted: string[];
  lastSeq: number;
  clock: Clock;
  logger: Logger;
}

/**
 * What a session is before the host's parts exist: its identity, its event pipeline with the
 * folds every other part relies on (the conversation, calls in flight), its grants and its
 * close steps. The host builds the session's environment from this (`SessionHost`).
 */
export class SessionBase implements SessionHost {
  readonly meta: SessionMeta;
  readonly dir: string;
  readonly log: SessionLog;
  readonly pipeline: EventPipeline;
  readonly conversation: AgentSlices;
  readonly calls = new CallTracker();
  readonly paths: GrantablePaths;
  private readonly attribution = new CallAttribution();
  private readonly grantedDirs: string[];
  private openTurn: string | undefined;
  private readonly closers: Array<() => Promise<void>> = [];

  constructor(parts: SessionBaseParts) {
    this.meta = parts.meta;
    this.dir = parts.dir;
    this.log = parts.log;
    this.conversation = parts.conversation;
    this.paths = parts.paths;
    this.grantedDirs = [...parts.granted];
    this.pipeline = new EventPipeline({ sessionId: parts.meta.id, log: parts.log, clock: parts.clock, logger: parts.logger, lastSeq: parts.lastSeq });
  }

  /** Follows the session's own turn (not a worker's) through the log: a `stamped` subscriber of the pipeline. */
  readonly observeOpenTurn = (event: SessionEvent): void => {
    if (event.type === 'turn_started' && event.taskId === undefined) this.openTurn = event.turnId;
    else if (endsTurn(event) && event.turnId === this.openTurn) this.openTurn = undefined;
  };

  /** The turn running now (the session's own, not a worker's), if any. */
  currentTurnId(): string | undefined {
    return this.openTurn;
  }

  get id(): string {
    return this.meta.id;
  }

  get commandLogDir(): string {
    return join(this.dir, 'commands');
  }

  /** Every event of the session comes through here; those about a call get the call's agent. */
  emit(body: EventBody | EngineEvent): SessionEvent {
    return this.pipeline.emit(this.attribution.tag(body));
  }

  writableRoots(): string[] {
    return [this.meta.cwd, ...this.grantedDirs];
  }

  onClose(fn: () => Promise<void>): void {
    this.closers.push(fn);
  }

  /**
   * Widens the path sandbox (`sandbox:grant`); returns the directory as resolved. With `write`,
   * a protected location (`.git/hooks`, `.mcp.json`, …) becomes writable for the session.
   */
  async grant(path: string, by: string, options: { write?: boolean } = {}): Promise<string> {
    let granted: string;
    try {
      granted = await this.paths.grant(path, options);
    } catch (err) {
      throw new ForbiddenError(err instanceof Error ? err.message : String(err));
    }
    const write = this.paths.writeGrants?.().includes(granted) ?? false;
    if (!write && !this.grantedDirs.includes(granted)) this.grantedDirs.push(granted);
    this.emit({ type: 'sandbox_granted', path: granted, by, ...(write ? { write: true } : {}) });
    return granted;
  }

  /** Protected locations granted write for this session. */
  writeGrants(): string[] {
    return this.paths.writeGrants?.() ?? [];
  }

  /** Runs the close steps in order; one failing is logged and the others still run. */
  async runClosers(logger: Logger): Promise<void> {
    for (const fn of this.closers) {
      await fn().catch((err: unknown) => logger.error({ err, sessionId: this.id }, 'a close step failed'));
    }
  }
}
