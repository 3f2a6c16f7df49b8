import { type FSWatcher, mkdirSync, watch } from 'node:fs';
import { lstat, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Directories watched at most; a larger workspace is scanned whole at every sync instead. */
const MAX_DIRECTORIES = 8_000;
/** Past this many events between two syncs the kernel's queue (16,384 by default) may have dropped some: scan. */
const MAX_EVENTS = 8_000;
/** Past this many changed paths a whole scan is as cheap as looking at each. */
const MAX_PATHS = 500;
/** A barrier not seen by then means the events cannot be trusted: that sync scans. */
const BARRIER_WAIT_MS = 5_000;

/** What a sync must look at: these paths (files or directories; relative, `/`-separated), or everything. */
export type SyncPlan = { paths: string[] } | { scan: string };

/**
 * Which paths of a workspace changed since the last sync, from the kernel's file events
 * (inotify, one watch per directory that git does not ignore): a sync then looks at those paths
 * instead of every file's stat data (two syncs per command, 20,000 files: the scans were most of a
 * checkpoint's cost). Whenever the events may be incomplete — a watch could not be added, too
 * many events, a `.gitignore` changed (files it hid may now count) — the next sync scans the
 * whole workspace, as it always does when there is no watcher.
 */
export class WorkspaceWatcher {
  private readonly watchers = new Map<string, { watcher: FSWatcher; ino: number }>();
  private dirty = new Set<string>();
  private events = 0;
  /** Why the next sync must scan everything (cleared by taking that plan). */
  private rescan: string | undefined = 'the first sync of the workspace';
  /** Why watching stopped for good; every sync scans. */
  private off: string | undefined;
  private barrierWatch: FSWatcher | undefined;
  private barriers = 0;
  private closed = false;
  private readonly waiting = new Map<string, () => void>();

  constructor(
    private readonly root: string,
    /** A directory of Tandem's own (outside the workspace) for the barrier files. */
    private readonly barrierDir: string,
    /** Whether git leaves these paths out (directories given without a trailing slash). */
    private readonly ignored: (rels: readonly string[]) => Promise<Set<string>>,
  ) {}

  /** Starts watching every directory git does not ignore (call before the first sync: what changes meanwhile is seen). */
  async start(): Promise<void> {
    try {
      mkdirSync(this.barrierDir, { recursive: true });
      this.barrierWatch = watch(this.barrierDir, { persistent: false }, (_type, name) => {
        const seen = name?.toString();
        const resolve = seen === undefined ? undefined : this.waiting.get(seen);
        if (!resolve || seen === undefined) return;
        this.waiting.delete(seen);
        resolve();
        void rm(path.join(this.barrierDir, seen), { force: true });
      });
      this.barrierWatch.on('error', () => this.stop('the barrier watch ended'));
    } catch (err) {
      return this.stop(`file events are not available (${(err as Error).message})`);
    }
    // A walk git could not answer (the ignore check failed): no watching, every sync scans.
    await this.watchTree('').catch((err: unknown) => this.stop(`the folders could not be listed (${(err as Error).message})`));
  }

  /**
   * Resolves once every file event the kernel queued before this call has been counted: a file
   * is created in a watched directory of Tandem's own, and events of one inotify instance (libuv
   * keeps one per process) arrive in order. True when the barrier was seen.
   */
  private barrier(): Promise<boolean> {
    if (!this.barrierWatch) return Promise.resolve(false);
    const name = `barrier-${++this.barriers}`;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(name);
        resolve(false);
      }, BARRIER_WAIT_MS);
      timer.unref();
      this.waiting.set(name, () => {
        clearTimeout(timer);
        resolve(true);
      });
      writeFile(path.join(this.barrierDir, name), '').catch(() => {
        this.waiting.delete(name);
        clearTimeout(timer);
        resolve(false);
      });
    });
  }

  /** Why watching is off, if it is. */
  get stopped(): string | undefined {
    return this.off;
  }

  /**
   * What the next sync must look at; the changes since are collected anew. Every change made
   * before this call (a command's writes before it exited, a file tool's write) is counted first.
   */
  async take(): Promise<SyncPlan> {
    if (!this.off && !(await this.barrier())) this.rescan ??= 'the file events could not be confirmed in time';
    const dirty = this.dirty;
    const events = this.events;
    const rescan = this.off ?? this.rescan ?? (events > MAX_EVENTS ? `${events} file events since the last sync` : undefined);
    this.dirty = new Set();
    this.events = 0;
    this.rescan = undefined;
    if (rescan) return { scan: rescan };
    if (dirty.size > MAX_PATHS) return { scan: `${dirty.size} paths changed` };
    return { paths: [...dirty] };
  }

  close(): void {
    this.closed = true;
    for (const w of this.watchers.values()) w.watcher.close();
    this.watchers.clear();
    this.barrierWatch?.close();
    this.barrierWatch = undefined;
    for (const resolve of this.waiting.values()) resolve();
    this.waiting.clear();
  }

  private stop(why: string): void {
    this.off ??= why;
    this.close();
  }

  /** Watches `rel` and every directory below it that git does not ignore; what is in them counts as changed. */
  private async watchTree(rel: string): Promise<void> {
    const queue = [rel];
    while (queue.length > 0 && !this.off && !this.closed) {
      const dir = queue.shift()!;
      if (this.watchers.has(dir)) continue;
      if (this.watchers.size >= MAX_DIRECTORIES) return this.stop(`more than ${MAX_DIRECTORIES} directories`);
      const abs = path.join(this.root, dir);
      try {
        const { ino } = await lstat(abs);
        const watcher = watch(abs, { persistent: false }, (type, name) => this.changed(dir, type, name));
        watcher.on('error', () => this.lost(dir));
        this.watchers.set(dir, { watcher, ino });
      } catch (err) {
        // ENOSPC: the user's inotify watches are used up; ENOENT: it went away meanwhile.
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        return this.stop(`a directory could not be watched (${(err as Error).message})`);
      }
      const entries = await readdir(abs, { withFileTypes: true }).catch(() => []);
      const subdirs: string[] = [];
      for (const entry of entries) {
        const child = dir ? `${dir}/${entry.name}` : entry.name;
        if (entry.isDirectory()) {
          if (entry.name !== '.git') subdirs.push(child);
        } else if (rel !== '') this.dirty.add(child);
      }
      const left = await this.ignored(subdirs);
      for (const sub of subdirs) if (!left.has(sub)) queue.push(sub);
    }
  }

  private changed(dir: string, type: string, name: string | Buffer | null): void {
    if (this.closed) return;
    this.events++;
    if (name === null) {
      this.rescan ??= `an event without a name in ${dir || 'the workspace'}`;
      return;
    }
    const base = name.toString();
    const rel = dir ? `${dir}/${base}` : base;
    this.dirty.add(rel);
    if (base === '.gitignore') this.rescan ??= `${rel} changed`;
    if (type !== 'rename') return;
    // Created, removed or moved: a new directory is watched at once (what is written into it next
    // must be seen); a watched one that went away takes its watches with it.
    void lstat(path.join(this.root, rel))
      .then(
        async (info) => {
          if (!info.isDirectory()) return this.forget(rel);
          // Replaced by another directory of the same name: the old watch saw the old one.
          if (this.watchers.get(rel)?.ino !== info.ino) this.forget(rel);
          if (!this.watchers.has(rel) && base !== '.git' && !(await this.ignored([rel])).has(rel)) await this.watchTree(rel);
        },
        () => this.forget(rel),
      )
      // git could not say whether the folder is ignored (or it went away meanwhile): scan next time.
      .catch(() => {
        this.rescan ??= `${rel} could not be watched`;
      });
  }

  /** A watched directory went away: its watches with it. */
  private forget(rel: string): void {
    for (const [dir, { watcher }] of this.watchers)
      if (dir === rel || dir.startsWith(`${rel}/`)) {
        watcher.close();
        this.watchers.delete(dir);
      }
  }

  private lost(dir: string): void {
    this.forget(dir);
    this.rescan ??= `the watch on ${dir || 'the workspace'} ended`;
  }
}
