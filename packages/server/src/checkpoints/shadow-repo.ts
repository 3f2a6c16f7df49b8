import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { lstat, readdir, readlink } from 'node:fs/promises';
import path from 'node:path';
import { GitPipe, LINE, NUL, piecesAnswer } from './git-pipe.js';
import { git, nulList } from './git-process.js';

/** A file as git keeps it: mode (`100644`, `100755`, `120000` for a link) and blob id. */
export interface FileEntry {
  mode: string;
  blob: string;
}

/** A file's state: an entry, or null when it does not exist. */
export type FileState = FileEntry | null;

/** A path whose entry a sync changed, with its entry before (null: it was not kept). */
export interface Transition {
  path: string;
  before: FileState;
}

/** One path that differs between two trees. */
export interface TreeChange {
  path: string;
  before: FileState;
  after: FileState;
}

/** git's empty tree (it needs not be stored to be named). */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** Past this many changed paths a snapshot adds them with `git add -A` instead of update-index. */
const BULK_PATHS = 500;

/** A gitignore pattern that matches exactly this workspace-relative path. */
function literalPattern(rel: string): string {
  return `/${rel.replace(/[\\*?[\]!#]/g, (c) => `\\${c}`)}`;
}

/** Never kept: what the agent may not touch anyway (or only once granted), and what runs later. */
const SHADOW_EXCLUDES = ['/.tandem/', '/.mcp.json', '/.claude/', '/.agents/'];

/**
 * A git repository of Tandem's own in the data directory whose work tree is the user's workspace:
 * the user's `.git` is never read or written (git skips `.git` directories when it lists files,
 * and the shadow has its own index, objects and refs). Its index remembers each file's stat
 * data, so a snapshot of a large workspace where few files changed hashes only those. Every
 * operation runs alone (`exclusive`): sessions of one workspace share the repository.
 */
export class ShadowRepo {
  private queue: Promise<unknown> = Promise.resolve();
  private ready: Promise<void> | undefined;
  /** Long-lived git processes for what every call or turn asks (hash a file, is a path ignored, make a tree, keep it). */
  private readonly hasher: GitPipe;
  private readonly ignoreChecker: GitPipe;
  private readonly treeMaker: GitPipe;
  private readonly refWriter: GitPipe;

  constructor(
    readonly gitDir: string,
    readonly workTree: string,
    private readonly maxFileBytes: number,
  ) {
    const where = { gitDir, workTree };
    this.hasher = new GitPipe(['hash-object', '-w', '--no-filters', '--stdin-paths'], where, piecesAnswer(1, LINE));
    this.ignoreChecker = new GitPipe(['check-ignore', '--stdin', '-z', '-v', '-n', '--no-index'], where, piecesAnswer(4, NUL));
    this.treeMaker = new GitPipe(['mktree', '-z', '--batch'], { gitDir }, piecesAnswer(1, LINE));
    this.refWriter = new GitPipe(['update-ref', '--stdin'], { gitDir }, piecesAnswer(2, LINE));
  }

  /** Stops the long-lived git processes (they start again if asked). */
  close(): void {
    for (const pipe of [this.hasher, this.ignoreChecker, this.treeMaker, this.refWriter]) pipe.close();
  }

  /** Runs `fn` after every operation queued before it, and before any queued after. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private run(args: readonly string[], extra: { input?: string | Buffer; env?: Record<string, string>; okCodes?: number[] } = {}): Promise<Buffer> {
    return git(args, { gitDir: this.gitDir, workTree: this.workTree, ...extra });
  }

  /** Creates the repository the first time (no refs, no hooks, no automatic gc); callers at once share one creation. */
  ensure(): Promise<void> {
    this.ready ??= this.create().catch((err: unknown) => {
      this.ready = undefined;
      throw err;
    });
    return this.ready;
  }

  private async create(): Promise<void> {
    if (existsSync(path.join(this.gitDir, 'HEAD'))) return;
    mkdirSync(this.gitDir, { recursive: true, mode: 0o700 });
    await git(['init', '--quiet'], { gitDir: this.gitDir });
    // One write instead of a git run per setting: a work tree given each time, no automatic gc, no fsmonitor.
    appendFileSync(path.join(this.gitDir, 'config'), '[core]\n\tbare = false\n\tautocrlf = false\n\tfsmonitor = false\n[gc]\n\tauto = 0\n');
    mkdirSync(path.join(this.gitDir, 'info'), { recursive: true });
    writeFileSync(path.join(this.gitDir, 'info', 'exclude'), `${SHADOW_EXCLUDES.join('\n')}\n`);
  }

  /**
   * Brings the index up to the workspace now: files changed since the last sync (by stat) are
   * hashed, new ones added, deleted ones dropped; ignored files and files over the size limit stay
   * out. Returns each path whose entry changed, with its entry before: the difference between two
   * syncs is what happened in between, with no tree written or compared.
   */
  async sync(): Promise<Transition[]> {
    await this.ensure();
    // Both only read (no optional locks): changed tracked files with their entries, and new files.
    const [dirty, others] = await Promise.all([
      this.run(['diff-files', '--raw', '-z', '--no-renames']),
      this.run(['ls-files', '-z', '-o', '--exclude-standard']),
    ]);
    const before = new Map<string, FileState>();
    const parts = nulList(dirty);
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const [mode, , blob] = parts[i]!.slice(1).split(' ');
      before.set(parts[i + 1]!, { mode: mode!, blob: blob! });
    }
    for (const rel of nulList(others)) if (!rel.endsWith('/') && !before.has(rel)) before.set(rel, null);
    return this.update(before, true);
  }

  /**
   * `sync` for only these paths (files, or directories taken whole), when it is known nothing
   * else changed (the workspace's file events say so): no scan of every file.
   */
  async syncPaths(paths: readonly string[]): Promise<Transition[]> {
    await this.ensure();
    if (paths.length === 0) return [];
    const files = new Set<string>();
    for (const rel of paths) {
      const info = await lstat(path.join(this.workTree, rel)).catch(() => undefined);
      if (info?.isDirectory()) for (const f of await this.filesUnder(rel)) files.add(f);
      else files.add(rel);
    }
    // The index's entries at or under each path: a removed directory's files among them.
    const before = new Map<string, FileState>();
    const listed = await this.run(['ls-files', '-s', '-z', '--', ...paths], { env: { GIT_LITERAL_PATHSPECS: '1' } });
    for (const line of nulList(listed)) {
      const tab = line.indexOf('\t');
      const [mode, blob] = line.slice(0, tab).split(' ');
      before.set(line.slice(tab + 1), { mode: mode!, blob: blob! });
    }
    const fresh = [...files].filter((f) => !before.has(f));
    const ignored = await this.ignored(fresh);
    for (const f of fresh) if (!ignored.has(f)) before.set(f, null);
    return this.update(before, false);
  }

  /** The files below a directory, leaving out what git ignores (and any `.git`). */
  private async filesUnder(rel: string): Promise<string[]> {
    const out: string[] = [];
    const queue = [rel];
    while (queue.length > 0) {
      const dir = queue.shift()!;
      const entries = await readdir(path.join(this.workTree, dir), { withFileTypes: true }).catch(() => []);
      const subdirs: string[] = [];
      for (const e of entries) {
        const child = `${dir}/${e.name}`;
        if (e.isDirectory()) {
          if (e.name !== '.git') subdirs.push(child);
        } else out.push(child);
      }
      const ignored = await this.ignored(subdirs);
      for (const sub of subdirs) if (!ignored.has(sub)) queue.push(sub);
    }
    return out;
  }

  /**
   * Writes the current state of each path of `before` into the index (hashing what changed;
   * leaving out, or dropping, files over the size limit) and returns the paths whose entry may
   * have changed, with their entry before.
   */
  private async update(before: ReadonlyMap<string, FileState>, wholeScan: boolean): Promise<Transition[]> {
    // In git's (sorted) order: update-index inserts each path into the index's sorted list, and
    // paths in random order made that quadratic (30 s instead of 1 s for 20,000 new files).
    const listed = [...before.keys()].sort();
    const kinds = await Promise.all(
      listed.map(async (rel) => {
        const info = await lstat(path.join(this.workTree, rel)).catch(() => undefined);
        if (!info) return before.get(rel) ? ('gone' as const) : ('none' as const);
        if (info.isDirectory()) return 'none' as const;
        return info.isFile() && info.size > this.maxFileBytes ? ('big' as const) : ('file' as const);
      }),
    );
    const add = listed.filter((_, i) => kinds[i] === 'file' || kinds[i] === 'gone');
    const drop = listed.filter((rel, i) => kinds[i] === 'big' && before.get(rel) !== null);
    if (wholeScan && add.length > BULK_PATHS) {
      // Many paths (the first sync of a workspace): `git add -A` takes them in one pass; update-index
      // checks each new path against the whole index (20,000 new files: 27 s instead of 1 s). The
      // files over the limit are excluded for that pass.
      const exclude = path.join(this.gitDir, 'info', 'exclude');
      const tooBig = listed.filter((_, i) => kinds[i] === 'big');
      if (tooBig.length > 0) writeFileSync(exclude, `${SHADOW_EXCLUDES.join('\n')}\n${tooBig.map(literalPattern).join('\n')}\n`);
      try {
        await this.run(['add', '-A', '--ignore-errors']);
      } finally {
        if (tooBig.length > 0) writeFileSync(exclude, `${SHADOW_EXCLUDES.join('\n')}\n`);
      }
    } else if (add.length > 0) await this.run(['update-index', '--add', '--remove', '-z', '--stdin'], { input: `${add.join('\0')}\0` });
    if (drop.length > 0) await this.run(['update-index', '--force-remove', '-z', '--stdin'], { input: `${drop.join('\0')}\0` });
    return [...add, ...drop].map((rel) => ({ path: rel, before: before.get(rel) ?? null }));
  }

  /** The index as a tree (answered from the index's cached trees when nothing changed). */
  async writeTree(): Promise<string> {
    await this.ensure();
    return (await this.run(['write-tree'])).toString('utf8').trim();
  }

  /** The paths of `tree` at or under each of `paths` (files, or directories to list). */
  async entriesOf(tree: string, paths: readonly string[]): Promise<Map<string, FileEntry>> {
    const found = new Map<string, FileEntry>();
    if (paths.length === 0) return found;
    for (const line of nulList(await this.run(['ls-tree', '-r', '-z', '--full-tree', tree, '--', ...paths]))) {
      const tab = line.indexOf('\t');
      const [mode, type, blob] = line.slice(0, tab).split(' ');
      if (type === 'blob') found.set(line.slice(tab + 1), { mode: mode!, blob: blob! });
    }
    return found;
  }

  /** Every path that differs between two trees, with its state in each. */
  async changes(a: string, b: string): Promise<TreeChange[]> {
    if (a === b) return [];
    const parts = nulList(await this.run(['diff-tree', '-r', '-z', '--no-renames', '--raw', a, b]));
    const out: TreeChange[] = [];
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const [oldMode, newMode, oldBlob, newBlob] = parts[i]!.slice(1).split(' ');
      const state = (mode: string, blob: string): FileState => (/^0+$/.test(mode) ? null : { mode, blob });
      out.push({ path: parts[i + 1]!, before: state(oldMode!, oldBlob!), after: state(newMode!, newBlob!) });
    }
    return out;
  }

  /** The paths of `paths` git would leave out (the workspace's .gitignore, the global excludes, the shadow's own). */
  async ignored(paths: readonly string[]): Promise<Set<string>> {
    await this.ensure();
    // -v -n answers every path: source, line, pattern, path; a pattern starting with ! keeps the path in.
    const answers = await Promise.all(paths.map((rel) => this.ignoreChecker.ask(`${rel}\0`)));
    const out = new Set<string>();
    answers.forEach((answer, i) => {
      const pattern = answer.split('\0')[2] ?? '';
      if (pattern !== '' && !pattern.startsWith('!')) out.add(paths[i]!);
    });
    return out;
  }

  /**
   * Each path's state on disk now, its content stored (to restore it later, or only to compare:
   * a blob more in the shadow costs nothing, starting git does). Paths over the size limit (and
   * directories) are left out of the map.
   */
  async statesNow(paths: readonly string[]): Promise<Map<string, FileState>> {
    await this.ensure();
    const states = new Map<string, FileState>();
    const files: Array<{ rel: string; mode: string }> = [];
    await Promise.all(
      paths.map(async (rel) => {
        const abs = path.join(this.workTree, rel);
        const info = await lstat(abs).catch(() => undefined);
        if (!info) return void states.set(rel, null);
        if (info.isSymbolicLink()) {
          const target = await readlink(abs);
          const blob = (await this.run(['hash-object', '-w', '--stdin'], { input: target })).toString('utf8').trim();
          return void states.set(rel, { mode: '120000', blob });
        }
        if (!info.isFile() || info.size > this.maxFileBytes) return;
        files.push({ rel, mode: info.mode & 0o111 ? '100755' : '100644' });
      }),
    );
    const blobs = await Promise.all(files.map((f) => this.hash(f.rel)));
    files.forEach((f, i) => states.set(f.rel, { mode: f.mode, blob: blobs[i]! }));
    return states;
  }

  /** Stores a file's content; its blob id. A path with a line break cannot go through the long-lived process. */
  private async hash(rel: string): Promise<string> {
    if (!rel.includes('\n')) return this.hasher.ask(`${rel}\n`);
    return (await this.run(['hash-object', '-w', '--no-filters', '--', rel])).toString('utf8').trim();
  }

  /** A blob's bytes. */
  blob(id: string): Promise<Buffer> {
    return this.run(['cat-file', 'blob', id]);
  }

  /** A tree holding exactly `entries` (paths with `/` make the trees between). */
  async treeOf(entries: ReadonlyMap<string, FileEntry>): Promise<string> {
    await this.ensure();
    const files: string[] = [];
    const dirs = new Map<string, Map<string, FileEntry>>();
    for (const [p, e] of entries) {
      const slash = p.indexOf('/');
      if (slash < 0) {
        files.push(`${e.mode} blob ${e.blob}\t${p}\0`);
        continue;
      }
      const name = p.slice(0, slash);
      if (!dirs.has(name)) dirs.set(name, new Map());
      dirs.get(name)!.set(p.slice(slash + 1), e);
    }
    const subtrees = await Promise.all([...dirs].map(async ([name, inner]) => `040000 tree ${await this.treeOf(inner)}\t${name}\0`));
    // mktree sorts the entries itself; an empty record ends one tree of the batch.
    return this.treeMaker.ask(`${[...files, ...subtrees].join('')}\0`);
  }

  /** The trees directly inside `tree`, by name. */
  async subtrees(tree: string): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const line of nulList(await this.run(['ls-tree', '-z', tree]))) {
      const [, type, id] = line.slice(0, line.indexOf('\t')).split(' ');
      if (type === 'tree') found.set(line.slice(line.indexOf('\t') + 1), id!);
    }
    return found;
  }

  /** Keeps an object (and what it holds) from being pruned. */
  async setRef(ref: string, object: string): Promise<void> {
    const answer = await this.refWriter.ask(`start\nupdate ${ref} ${object}\ncommit\n`);
    if (answer !== 'start: ok\ncommit: ok') throw new Error(`git update-ref answered: ${answer}`);
  }

  /** Drops every ref under `prefix` (e.g. `refs/tandem/SESSION/`), then the objects nothing keeps any more. */
  async dropRefs(prefix: string, prune = true): Promise<void> {
    await this.ensure();
    const refs = (await this.run(['for-each-ref', '--format=%(refname)', prefix])).toString('utf8').split('\n').filter(Boolean);
    if (refs.length > 0) await this.run(['update-ref', '--stdin'], { input: refs.map((r) => `delete ${r}\n`).join('') });
    if (prune) await this.run(['prune', '--expire=now']);
  }

  /** The unified diff and the per-file status between two trees. */
  async diff(a: string, b: string): Promise<{ diff: string; files: Array<{ path: string; status: 'added' | 'modified' | 'deleted' }> }> {
    const diff = (await this.run(['diff', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames', a, b])).toString('utf8');
    const files = (await this.changes(a, b)).map((c) => ({
      path: c.path,
      status: c.before === null ? ('added' as const) : c.after === null ? ('deleted' as const) : ('modified' as const),
    }));
    return { diff, files };
  }
}
