import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { lstat, readlink, rm } from 'node:fs/promises';
import path from 'node:path';
import { git, nulList } from './git-process.js';

/** A file as git keeps it: mode (`100644`, `100755`, `120000` for a link) and blob id. */
export interface FileEntry {
  mode: string;
  blob: string;
}

/** A file's state: an entry, or null when it does not exist. */
export type FileState = FileEntry | null;

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
  private ready = false;

  constructor(
    readonly gitDir: string,
    readonly workTree: string,
    private readonly maxFileBytes: number,
  ) {}

  /** Runs `fn` after every operation queued before it, and before any queued after. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private run(args: readonly string[], extra: { input?: string | Buffer; env?: Record<string, string>; okCodes?: number[] } = {}): Promise<Buffer> {
    return git(args, { gitDir: this.gitDir, workTree: this.workTree, ...extra });
  }

  /** Creates the repository the first time (no refs, no hooks, no automatic gc). */
  async ensure(): Promise<void> {
    if (this.ready) return;
    if (!existsSync(path.join(this.gitDir, 'HEAD'))) {
      mkdirSync(this.gitDir, { recursive: true, mode: 0o700 });
      await git(['init', '--quiet'], { gitDir: this.gitDir });
      // One write instead of a git run per setting: a work tree given each time, no automatic gc, no fsmonitor.
      appendFileSync(path.join(this.gitDir, 'config'), '[core]\n\tbare = false\n\tautocrlf = false\n\tfsmonitor = false\n[gc]\n\tauto = 0\n');
      mkdirSync(path.join(this.gitDir, 'info'), { recursive: true });
      writeFileSync(path.join(this.gitDir, 'info', 'exclude'), `${SHADOW_EXCLUDES.join('\n')}\n`);
    }
    this.ready = true;
  }

  /**
   * The workspace as a tree now: files changed since the last snapshot (by stat) are hashed,
   * new ones added, deleted ones dropped; ignored files and files over the size limit stay out.
   */
  async snapshot(): Promise<string> {
    await this.ensure();
    const listed = [...new Set(nulList(await this.run(['ls-files', '-z', '-m', '-o', '--exclude-standard'])))].filter((p) => !p.endsWith('/'));
    // In git's (sorted) order: update-index inserts each path into the index's sorted list, and
    // paths in random order made that quadratic (30 s instead of 1 s for 20,000 new files).
    const big = await Promise.all(
      listed.map(async (rel) => {
        const info = await lstat(path.join(this.workTree, rel)).catch(() => undefined);
        return info !== undefined && info.isFile() && info.size > this.maxFileBytes;
      }),
    );
    const add = listed.filter((_, i) => !big[i]);
    const drop = listed.filter((_, i) => big[i]);
    if (add.length > BULK_PATHS) {
      // Many paths (the first snapshot of a workspace): `git add -A` takes them in one pass; update-index
      // checks each new path against the whole index (20,000 new files: 27 s instead of 1 s). The
      // files over the limit are excluded for that pass.
      const exclude = path.join(this.gitDir, 'info', 'exclude');
      if (drop.length > 0) writeFileSync(exclude, `${SHADOW_EXCLUDES.join('\n')}\n${drop.map(literalPattern).join('\n')}\n`);
      try {
        await this.run(['add', '-A', '--ignore-errors']);
      } finally {
        if (drop.length > 0) writeFileSync(exclude, `${SHADOW_EXCLUDES.join('\n')}\n`);
      }
    }
    // Nothing changed since the last snapshot (the usual case between two calls): no update, and write-tree answers from the index's cached trees.
    else if (add.length > 0) await this.run(['update-index', '--add', '--remove', '-z', '--stdin'], { input: `${add.join('\0')}\0` });
    if (drop.length > 0) await this.run(['update-index', '--force-remove', '-z', '--stdin'], { input: `${drop.join('\0')}\0` });
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
    if (paths.length === 0) return new Set();
    await this.ensure();
    const out = await this.run(['check-ignore', '-z', '--no-index', '--stdin'], { input: `${paths.join('\0')}\0`, okCodes: [1] });
    return new Set(nulList(out));
  }

  /**
   * Each path's state on disk now; `write` also stores the content (to restore it later).
   * Paths over the size limit (and directories) are left out of the map.
   */
  async statesNow(paths: readonly string[], write: boolean): Promise<Map<string, FileState>> {
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
          const blob = (await this.run(['hash-object', ...(write ? ['-w'] : []), '--stdin'], { input: target })).toString('utf8').trim();
          return void states.set(rel, { mode: '120000', blob });
        }
        if (!info.isFile() || info.size > this.maxFileBytes) return;
        files.push({ rel, mode: info.mode & 0o111 ? '100755' : '100644' });
      }),
    );
    if (files.length > 0) {
      const out = await this.run(['hash-object', ...(write ? ['-w'] : []), '--no-filters', '--stdin-paths'], {
        input: `${files.map((f) => f.rel).join('\n')}\n`,
      });
      const blobs = out.toString('utf8').trim().split('\n');
      files.forEach((f, i) => states.set(f.rel, { mode: f.mode, blob: blobs[i]! }));
    }
    return states;
  }

  /** A blob's bytes. */
  blob(id: string): Promise<Buffer> {
    return this.run(['cat-file', 'blob', id]);
  }

  /** A tree holding exactly `entries` (built in a scratch index; the shadow's own index is untouched). */
  async treeOf(entries: ReadonlyMap<string, FileEntry>): Promise<string> {
    await this.ensure();
    const index = path.join(this.gitDir, `scratch-${randomBytes(6).toString('hex')}.index`);
    const env = { GIT_INDEX_FILE: index };
    try {
      const lines = [...entries].map(([p, e]) => `${e.mode} ${e.blob}\t${p}\0`).join('');
      if (lines) await this.run(['update-index', '--add', '-z', '--index-info'], { input: lines, env });
      return (await this.run(['write-tree'], { env })).toString('utf8').trim();
    } finally {
      await rm(index, { force: true });
    }
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
    await this.run(['update-ref', ref, object]);
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
