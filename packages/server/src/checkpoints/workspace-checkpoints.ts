import path from 'node:path';
import type { FileState, ShadowRepo, Transition } from './shadow-repo.js';
import { WorkspaceWatcher } from './workspace-watcher.js';

/** Paths written by file tools, remembered per workspace past this many (oldest first forgotten). */
const MAX_REMEMBERED_WRITES = 10_000;
/** Journal entries kept at most: past this a bracket left open (its turn never ended) is dropped. */
const MAX_JOURNAL = 200_000;

/** Where a bracket started in the workspace's journal of syncs. */
export interface BracketStart {
  readonly id: number;
}

/**
 * One workspace's shadow repository, the journal of what its syncs changed, and what its
 * sessions' file tools wrote when. A command's changes are what the syncs between the one before
 * it and the one after it found (sessions of one workspace share the index, so another session's
 * sync in between is read from the journal, not lost); a file another session's file tool wrote
 * meanwhile is that session's change, not the command's. The journal is kept only while a bracket
 * is open and only from the oldest open bracket on.
 */
export class WorkspaceCheckpoints {
  private ticks = 0;
  private readonly writes = new Map<string, { sessionId: string; tick: number }>();
  /** Transitions found by syncs while brackets were open; `journalBase` is the position of the first. */
  private journal: Transition[] = [];
  private journalBase = 0;
  private readonly open = new Map<number, number>();
  private brackets = 0;
  /** The workspace's file events (undefined: every sync scans the whole workspace). */
  private readonly watcher: WorkspaceWatcher | undefined;
  private watching: Promise<void> | undefined;
  /** How the last sync learned what changed: `file events`, or why it scanned. */
  lastSync = '';

  constructor(
    readonly repo: ShadowRepo,
    options: { watch?: boolean } = {},
  ) {
    this.watcher = options.watch === false ? undefined : new WorkspaceWatcher(repo.workTree, path.join(repo.gitDir, 'events'), (rels) => repo.ignored(rels));
  }

  /** Stops watching and the long-lived git processes. */
  close(): void {
    this.watcher?.close();
    this.repo.close();
  }

  /** A moment on this workspace's clock (only order matters). */
  tick(): number {
    return ++this.ticks;
  }

  noteFileToolWrite(sessionId: string, paths: readonly string[]): void {
    const tick = this.tick();
    for (const p of paths) {
      this.writes.delete(p);
      this.writes.set(p, { sessionId, tick });
    }
    while (this.writes.size > MAX_REMEMBERED_WRITES) this.writes.delete(this.writes.keys().next().value as string);
  }

  /** Whether another session's file tool wrote `path` at or after `since`. */
  writtenByOther(path: string, sessionId: string, since: number): boolean {
    const write = this.writes.get(path);
    return write !== undefined && write.sessionId !== sessionId && write.tick >= since;
  }

  /** Syncs the shadow's index with the workspace (call inside `repo.exclusive`); journals what changed while a bracket is open. */
  async sync(): Promise<void> {
    let found: Transition[];
    if (this.watcher) {
      // Watching starts before the first (whole) scan, so what changes during it is seen too.
      this.watching ??= this.watcher.start();
      await this.watching;
      const plan = await this.watcher.take();
      this.lastSync = 'paths' in plan ? 'file events' : `scan: ${plan.scan}`;
      found = 'paths' in plan ? await this.repo.syncPaths(plan.paths) : await this.repo.sync();
    } else {
      this.lastSync = 'scan: file events are off';
      found = await this.repo.sync();
    }
    if (this.open.size === 0) return;
    for (const t of found) this.journal.push(t);
    while (this.journal.length > MAX_JOURNAL && this.open.size > 0) {
      this.open.delete(this.open.keys().next().value as number);
      this.trim();
    }
  }

  /** Opens a bracket: syncs, and remembers where the journal stands. */
  openBracket(): Promise<BracketStart> {
    return this.repo.exclusive(async () => {
      await this.sync();
      const id = ++this.brackets;
      this.open.set(id, this.journalBase + this.journal.length);
      return { id };
    });
  }

  /** Closes a bracket: syncs, and returns each path changed since it opened with its state before. */
  closeBracket(start: BracketStart): Promise<Array<{ path: string; before: FileState }>> {
    return this.repo.exclusive(async () => {
      try {
        await this.sync();
        const from = this.open.get(start.id);
        const first = new Map<string, FileState>();
        if (from !== undefined) for (const t of this.journal.slice(from - this.journalBase)) if (!first.has(t.path)) first.set(t.path, t.before);
        return [...first].map(([path, before]) => ({ path, before }));
      } finally {
        // A failed sync closes the bracket too: the journal is never kept for it.
        this.dropBracket(start);
      }
    });
  }

  /** Forgets a bracket that will never close (its session went away). */
  dropBracket(start: BracketStart): void {
    this.open.delete(start.id);
    this.trim();
  }

  /** Drops the journal before the oldest open bracket (all of it when none is open). */
  private trim(): void {
    const oldest = Math.min(...this.open.values());
    if (!Number.isFinite(oldest)) {
      this.journalBase += this.journal.length;
      this.journal = [];
      return;
    }
    const drop = oldest - this.journalBase;
    if (drop <= 0) return;
    this.journal = this.journal.slice(drop);
    this.journalBase = oldest;
  }
}
