import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import type { EventBody } from '@tandem/shared';
import { SessionCheckpoints } from './session-checkpoints.js';
import { ShadowRepo } from './shadow-repo.js';
import { WorkspaceCheckpoints } from './workspace-checkpoints.js';

/** config.json `checkpoints`. */
export interface CheckpointSettings {
  enabled?: boolean;
  /** Turns kept per session (default 50). */
  keepTurns?: number;
  /** Files larger than this are left out (default 10 MB). */
  maxFileBytes?: number;
  /**
   * Learn what changed from the kernel's file events instead of scanning every file at each
   * command (default true). Set false where events miss changes (a network file system).
   */
  watch?: boolean;
}

export const DEFAULT_KEEP_TURNS = 50;
export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;

/**
 * The server's checkpoints: one shadow repository per workspace under
 * `<data-dir>/checkpoints/<hash of the workspace's real path>/`, one `SessionCheckpoints` per session.
 * Off when config.json says so or when git cannot run (then `off` says why).
 */
export class Checkpoints {
  private readonly workspaces = new Map<string, WorkspaceCheckpoints>();
  private readonly primed = new Set<string>();
  /** Work started here or by a session's checkpoints that may still be writing (awaited by `settled`). */
  private readonly pending = new Set<Promise<unknown>>();
  private readonly sessions = new Set<SessionCheckpoints>();
  private offAnswer: { why: string | undefined } | undefined;

  constructor(private readonly options: { dataDir: string; settings?: CheckpointSettings | undefined; logger?: Logger }) {}

  /**
   * Why checkpoints are off, or undefined when they are on. Decided once, when a session first
   * asks: running `git --version` (~25 ms) is the first session's, not every server's start.
   */
  get off(): string | undefined {
    this.offAnswer ??= { why: this.whyOff() };
    return this.offAnswer.why;
  }

  private whyOff(): string | undefined {
    if (this.options.settings?.enabled === false) return 'turned off in config.json (checkpoints.enabled: false)';
    const probe = spawnSync('git', ['--version'], { encoding: 'utf8', timeout: 10_000 });
    return probe.status === 0 ? undefined : 'git is not installed (undo needs git: apt-get install git)';
  }

  /** The checkpoints of one session, or undefined when they are off. */
  forSession(session: { id: string; dir: string; cwd: string }, emit: (body: EventBody) => void): SessionCheckpoints | undefined {
    if (this.off) return undefined;
    let workTree: string;
    try {
      workTree = realpathSync(session.cwd);
    } catch {
      return undefined;
    }
    let workspace = this.workspaces.get(workTree);
    if (!workspace) {
      const key = createHash('sha256').update(workTree).digest('hex').slice(0, 16);
      const gitDir = path.join(this.options.dataDir, 'checkpoints', key);
      workspace = new WorkspaceCheckpoints(new ShadowRepo(gitDir, workTree, this.options.settings?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES), {
        watch: this.options.settings?.watch,
      });
      this.workspaces.set(workTree, workspace);
    }
    if (!this.primed.has(workTree)) {
      // The first snapshot of a workspace hashes every file: start it now, not at the first command.
      this.primed.add(workTree);
      const primed = workspace;
      const first = primed.repo
        .exclusive(() => primed.sync())
        .catch((err: unknown) => this.options.logger?.warn({ err, workspace: workTree }, 'checkpoint: the first snapshot failed'));
      this.pending.add(first);
      void first.then(() => this.pending.delete(first));
    }
    const checkpoints = new SessionCheckpoints({
      sessionId: session.id,
      workspace,
      file: path.join(session.dir, 'checkpoints.json'),
      keepTurns: this.options.settings?.keepTurns ?? DEFAULT_KEEP_TURNS,
      emit,
      logger: this.options.logger ?? pino({ level: 'silent' }),
    });
    this.sessions.add(checkpoints);
    return checkpoints;
  }

  /**
   * Resolves once nothing started so far is still writing: the first snapshots of workspaces and
   * every session's queued steps; then the long-lived git processes stop. The server awaits it as
   * it stops, after its sessions closed, so no git process writes into the data directory after
   * `close()`.
   */
  async settled(): Promise<void> {
    await Promise.all([...this.pending, ...[...this.sessions].map((s) => s.flushed())]);
    this.sessions.clear();
    for (const workspace of this.workspaces.values()) workspace.close();
  }
}
