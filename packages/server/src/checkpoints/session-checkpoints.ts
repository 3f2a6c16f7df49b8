import { chmod, lstat, mkdir, readdir, rm, rmdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { type EventBody, type SessionEvent, endsTurn } from '@tandem/shared';
import type { GateCall } from '@tandem/core';
import { ConflictError, NotFoundError } from '../errors/domain-errors.js';
import { EMPTY_TREE, type FileEntry, type FileState } from './shadow-repo.js';
import { readRecords, recordStatus, sameState, writeRecords, type TurnRecord } from './turn-record.js';
import type { BracketStart, WorkspaceCheckpoints } from './workspace-checkpoints.js';

export interface SessionCheckpointsOptions {
  sessionId: string;
  workspace: WorkspaceCheckpoints;
  /** `<session dir>/checkpoints.json`. */
  file: string;
  /** Turns kept per session (config.json `checkpoints.keepTurns`, default 50). */
  keepTurns: number;
  emit(body: EventBody): void;
  logger: Logger;
}

export interface UndoResult {
  files: string[];
  conflicts: Array<{ path: string; reason: string }>;
  turnIds: string[];
}

interface Bracket {
  start: BracketStart;
  tick: number;
  record: TurnRecord;
}

/**
 * One session's checkpoints (ARCHITECTURE "Checkpoints and a guarded workspace"). Before a call
 * that may change the workspace runs, the state of what it will touch is kept: a file tool's
 * files directly; around a command (or an MCP tool, or a file tool on a directory) the workspace
 * is synced into the shadow's index before and after, and what the syncs in between changed is
 * what it changed. A file's state is kept once per turn,
 * before the turn first changed it; at the turn's end its state then is kept too. Undo puts
 * back the `before` of every file whose state is still the turn's `after` and reports the others
 * as conflicts. Everything runs in order (one chain per session), each git step alone on the
 * workspace's shadow repository.
 */
export class SessionCheckpoints {
  private turns: TurnRecord[];
  private current: TurnRecord | undefined;
  private readonly brackets = new Map<string, Bracket>();
  private readonly fileCalls = new Map<string, string[]>();
  private work: Promise<void> = Promise.resolve();

  constructor(private readonly options: SessionCheckpointsOptions) {
    this.turns = readRecords(options.file);
    // A turn the server lost mid-way (a crash): its files' end states are unknown, so they are never put back.
    for (const t of this.turns) t.endedAt ??= t.startedAt;
  }

  private get repo() {
    return this.options.workspace.repo;
  }

  /** Queues `fn` after everything the session asked before; a failure is logged and leaves the turn without that file. */
  private enqueue<T>(what: string, fn: () => Promise<T>): Promise<T | undefined> {
    const run = this.work.then(fn).catch((err: unknown) => {
      this.options.logger.warn({ err, sessionId: this.options.sessionId }, `checkpoint: ${what} failed`);
      return undefined;
    });
    this.work = run.then(() => undefined);
    return run;
  }

  /** Resolves once every checkpoint step queued so far is done. */
  flushed(): Promise<void> {
    return this.work;
  }

  /** The session's events: turns start and end, calls end. */
  observe(event: SessionEvent): void {
    if (event.taskId !== undefined && event.type !== 'tool_result') return;
    if (event.type === 'turn_started') {
      const last = this.turns.at(-1)?.index ?? 0;
      this.current = { turnId: event.turnId, index: last + 1, startedAt: event.ts, files: {} };
      this.turns.push(this.current);
      return;
    }
    if (event.type === 'tool_result') {
      const bracket = this.brackets.get(event.callId);
      if (bracket) {
        this.brackets.delete(event.callId);
        void this.enqueue('the sync after a command', () => this.afterBracket(bracket));
      }
      const written = this.fileCalls.get(event.callId);
      if (written) {
        this.fileCalls.delete(event.callId);
        this.options.workspace.noteFileToolWrite(this.options.sessionId, written);
      }
      return;
    }
    if (endsTurn(event)) {
      const record = this.current;
      if (!record || record.turnId !== event.turnId) return;
      this.current = undefined;
      // A command cancelled or interrupted ends without a result: its sync after runs now.
      const open = [...this.brackets].filter(([, b]) => b.record === record);
      for (const [callId, bracket] of open) {
        this.brackets.delete(callId);
        void this.enqueue('the sync after a command', () => this.afterBracket(bracket));
      }
      void this.enqueue('closing the turn', () => this.finish(record, event.type === 'turn_cancelled', event.ts));
    }
  }

  /** Before a call runs (after the gate allowed it): keep what it may change. */
  beforeCall(call: GateCall): Promise<void> {
    const record = this.current;
    if (!record || call.readOnly) return Promise.resolve();
    // A command or an MCP tool: what it changes is unknown, so the whole workspace is kept around it.
    const tracked = call.unknownWrites === true;
    if (!tracked && !call.paths?.length) return Promise.resolve();
    return this.enqueue('the checkpoint before a call', async () => {
      const rels = (call.paths ?? []).map((p) => this.relative(p)).filter((p): p is string => p !== undefined);
      const onDirectory = await Promise.all(
        rels.map((r) =>
          lstat(path.join(this.repo.workTree, r)).then(
            (i) => i.isDirectory(),
            () => false,
          ),
        ),
      );
      if (!tracked && !onDirectory.some(Boolean)) {
        this.fileCalls.set(call.callId, rels);
        this.options.workspace.noteFileToolWrite(this.options.sessionId, rels);
        const fresh = rels.filter((r) => !(r in record.files));
        if (fresh.length === 0) return;
        await this.repo.exclusive(async () => {
          const ignored = await this.repo.ignored(fresh);
          const states = await this.repo.statesNow(fresh.filter((r) => !ignored.has(r)));
          for (const [rel, state] of states) if (!(rel in record.files)) record.files[rel] = { before: state };
        });
        return;
      }
      const tick = this.options.workspace.tick();
      const start = await this.options.workspace.openBracket();
      this.brackets.set(call.callId, { start, tick, record });
    }).then(() => undefined);
  }

  private async afterBracket(bracket: Bracket): Promise<void> {
    const changes = await this.options.workspace.closeBracket(bracket.start);
    for (const change of changes) {
      if (this.options.workspace.writtenByOther(change.path, this.options.sessionId, bracket.tick)) continue;
      if (!(change.path in bracket.record.files)) bracket.record.files[change.path] = { before: change.before };
    }
  }

  private async finish(record: TurnRecord, cancelled: boolean, at: string): Promise<void> {
    record.endedAt = at;
    if (cancelled) record.cancelled = true;
    const paths = Object.keys(record.files);
    if (paths.length > 0) {
      await this.repo.exclusive(async () => {
        const now = await this.repo.statesNow(paths);
        for (const p of paths) {
          const after = now.get(p);
          const entry = record.files[p]!;
          // Grown past the size limit or turned into a directory: left out, never put back.
          if (after === undefined || sameState(entry.before, after)) delete record.files[p];
          else entry.after = after;
        }
        if (Object.keys(record.files).length === 0) return;
        // One tree holds both sides (`before/…`, `after/…`), kept by one ref: fewer git runs per turn.
        const entries = new Map<string, FileEntry>();
        for (const [p, f] of Object.entries(record.files)) {
          if (f.before) entries.set(`before/${p}`, f.before);
          if (f.after) entries.set(`after/${p}`, f.after);
        }
        record.tree = await this.repo.treeOf(entries);
        await this.repo.setRef(`${this.refPrefix(record)}turn`, record.tree);
      });
    }
    const files = recordStatus(record);
    if (files.length > 0) this.options.emit({ type: 'checkpoint', turnId: record.turnId, files, ...(cancelled ? { cancelled: true } : {}) });
    await this.prune();
    this.save();
  }

  /** Keeps the last `keepTurns` turns; older ones lose their refs (their objects go with the next prune). */
  private async prune(): Promise<void> {
    const excess = this.turns.length - this.options.keepTurns;
    if (excess <= 0) return;
    const dropped = this.turns.splice(0, excess);
    await this.repo.exclusive(async () => {
      for (const record of dropped) if (record.tree) await this.repo.dropRefs(this.refPrefix(record), false);
    });
  }

  private save(): void {
    try {
      writeRecords(this.options.file, this.turns);
    } catch (err) {
      this.options.logger.warn({ err, sessionId: this.options.sessionId }, 'checkpoint: could not save the turn records');
    }
  }

  /** How many turns can be taken back now. */
  undoable(): number {
    return this.turns.filter((t) => t.endedAt).length;
  }

  /**
   * Puts back the files of the last `count` turns, newest first: each file whose state is still
   * what its turn left is restored (a file the turn created is removed); any other is a conflict,
   * left alone. The turns are then forgotten (the next undo goes further back).
   */
  async undo(count: number): Promise<UndoResult> {
    await this.flushed();
    const ended = this.turns.filter((t) => t.endedAt);
    if (count > ended.length) {
      throw new ConflictError(
        ended.length === 0
          ? 'there is no turn to undo in this session'
          : `only the last ${ended.length} turn${ended.length === 1 ? '' : 's'} can be undone (checkpoints.keepTurns keeps ${this.options.keepTurns})`,
      );
    }
    const chosen = ended.slice(ended.length - count);
    const files = new Set<string>();
    const conflicts = new Map<string, string>();
    await this.repo.exclusive(async () => {
      for (const record of [...chosen].reverse()) {
        const paths = Object.keys(record.files).filter((p) => record.files[p]!.after !== undefined);
        const now = await this.repo.statesNow(paths);
        for (const p of paths) {
          const { before, after } = record.files[p]!;
          if (!sameState(now.get(p), after)) {
            conflicts.set(p, 'changed since that turn (by someone else, or by a later turn); left as it is');
            continue;
          }
          await this.restore(p, before);
          files.add(p);
          conflicts.delete(p);
        }
      }
      for (const record of chosen) if (record.tree) await this.repo.dropRefs(this.refPrefix(record), false);
    });
    const undone = new Set(chosen);
    this.turns = this.turns.filter((t) => !undone.has(t));
    this.save();
    return {
      files: [...files].sort(),
      conflicts: [...conflicts].map(([p, reason]) => ({ path: p, reason })),
      turnIds: chosen.map((t) => t.turnId),
    };
  }

  /** One turn's changes (default the last turn that ended): each file's status and the unified diff. */
  async diff(turnId?: string): Promise<{ turnId?: string; files: Array<{ path: string; status: 'added' | 'modified' | 'deleted' }>; diff: string }> {
    await this.flushed();
    const record = turnId ? this.turns.find((t) => t.turnId === turnId) : this.turns.filter((t) => t.endedAt).at(-1);
    if (!record) {
      if (turnId) throw new NotFoundError(`no checkpoint of turn ${turnId} in this session (it was undone, pruned, or never ran here)`);
      return { files: [], diff: '' };
    }
    const tree = record.tree;
    if (!tree) return { turnId: record.turnId, files: [], diff: '' };
    const { diff, files } = await this.repo.exclusive(async () => {
      const sides = await this.repo.subtrees(tree);
      return this.repo.diff(sides.get('before') ?? EMPTY_TREE, sides.get('after') ?? EMPTY_TREE);
    });
    return { turnId: record.turnId, files, diff };
  }

  /** The turns kept, newest last (for /rewind). */
  async list(): Promise<Array<{ turnId: string; startedAt: string; cancelled: boolean; files: number }>> {
    await this.flushed();
    return this.turns
      .filter((t) => t.endedAt)
      .map((t) => ({ turnId: t.turnId, startedAt: t.startedAt, cancelled: t.cancelled ?? false, files: recordStatus(t).length }));
  }

  /** The session is deleted: its refs go now, its objects with the next prune. */
  async remove(): Promise<void> {
    await this.flushed();
    for (const bracket of this.brackets.values()) this.options.workspace.dropBracket(bracket.start);
    this.brackets.clear();
    await this.repo.exclusive(() => this.repo.dropRefs(`refs/tandem/${this.options.sessionId}/`, true)).catch(() => undefined);
  }

  private async restore(rel: string, state: FileState): Promise<void> {
    const abs = path.join(this.repo.workTree, rel);
    if (state === null) {
      await rm(abs, { force: true });
      await this.removeEmptyParents(path.dirname(abs));
      return;
    }
    const content = await this.repo.blob(state.blob);
    await mkdir(path.dirname(abs), { recursive: true });
    const existing = await lstat(abs).catch(() => undefined);
    if (existing && (existing.isSymbolicLink() || state.mode === '120000')) await rm(abs, { force: true });
    if (state.mode === '120000') {
      await symlink(content.toString('utf8'), abs);
      return;
    }
    await writeFile(abs, content);
    await chmod(abs, state.mode === '100755' ? 0o755 : 0o644);
  }

  /** Directories a removed file leaves empty go too, up to the workspace. */
  private async removeEmptyParents(dir: string): Promise<void> {
    const root = this.repo.workTree;
    for (let d = dir; d !== root && d.startsWith(root + path.sep); d = path.dirname(d)) {
      const entries = await readdir(d).catch(() => undefined);
      if (!entries || entries.length > 0) return;
      await rmdir(d).catch(() => undefined);
    }
  }

  private relative(abs: string): string | undefined {
    const rel = path.relative(this.repo.workTree, abs);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
    return rel.split(path.sep).join('/');
  }

  private refPrefix(record: TurnRecord): string {
    return `refs/tandem/${this.options.sessionId}/${record.index}/`;
  }
}
