import { chmodSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ShadowRepo } from './shadow-repo.js';
import { WorkspaceCheckpoints } from './workspace-checkpoints.js';

let root: string;
let repo: ShadowRepo;
const opened: WorkspaceCheckpoints[] = [];
afterEach(() => {
  for (const w of opened.splice(0)) w.close();
  rmSync(root, { recursive: true, force: true });
});

function setUp(files: Record<string, string>, watch = true): WorkspaceCheckpoints {
  root = mkdtempSync(join(tmpdir(), 'tandem-journal-'));
  const ws = join(root, 'ws');
  mkdirSync(ws, { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(ws, rel, '..'), { recursive: true });
    writeFileSync(join(ws, rel), text);
  }
  repo = new ShadowRepo(join(root, 'shadow'), ws, 1000);
  const workspace = new WorkspaceCheckpoints(repo, { watch });
  opened.push(workspace);
  return workspace;
}

/** A second shadow of the same workspace. */
function alsoOn(watch: boolean): WorkspaceCheckpoints {
  const workspace = new WorkspaceCheckpoints(new ShadowRepo(join(root, `shadow-${watch}`), join(root, 'ws'), 1000), { watch });
  opened.push(workspace);
  return workspace;
}

const write = (rel: string, text: string) => writeFileSync(join(root, 'ws', rel), text);

describe.each([
  ['with file events', true],
  ['scanning', false],
])('the journal of a workspace’s syncs (%s)', (_, watch) => {
  it('gives a bracket what changed while it was open, even when another bracket’s sync took the change into the index first', async () => {
    const workspace = setUp({ 'a.txt': 'a\n', 'b.txt': 'b\n' }, watch);
    await repo.exclusive(() => workspace.sync());
    const [aBefore] = (await repo.statesNow(['a.txt'])).values();
    write('x.txt', 'changed before any bracket\n');
    const first = await workspace.openBracket();
    write('a.txt', 'a changed in the first bracket\n');
    // A second bracket (another session's command) opens: its sync takes a.txt into the index.
    const second = await workspace.openBracket();
    write('b.txt', 'b changed while both are open\n');
    write('c.txt', 'new\n');
    const firstChanges = await workspace.closeBracket(first);
    expect(firstChanges.sort((p, q) => p.path.localeCompare(q.path))).toEqual([
      { path: 'a.txt', before: aBefore },
      { path: 'b.txt', before: expect.objectContaining({ mode: '100644' }) },
      { path: 'c.txt', before: null },
    ]);
    // The second bracket opened after a.txt changed: it is not its change.
    expect((await workspace.closeBracket(second)).map((c) => c.path).sort()).toEqual(['b.txt', 'c.txt']);
    // Nothing open: a later bracket sees only its own changes.
    const third = await workspace.openBracket();
    write('a.txt', 'again\n');
    expect((await workspace.closeBracket(third)).map((c) => c.path)).toEqual(['a.txt']);
  });
});

describe('file events instead of a scan', () => {
  it('find exactly what a whole scan finds, whatever a command does to files and directories', async () => {
    setUp({ '.gitignore': '*.log\nbuild/\n', 'src/a.ts': 'a\n', 'src/deep/b.ts': 'b\n', 'docs/x.md': 'x\n', 'old/y.md': 'y\n', 'gone/z.md': 'z\n' });
    mkdirSync(join(root, 'ws', 'empty'));
    const watched = alsoOn(true);
    const scanned = alsoOn(false);
    await Promise.all([watched.repo.exclusive(() => watched.sync()), scanned.repo.exclusive(() => scanned.sync())]);
    const ignoredOnly = () => {
      write('debug.log', 'ignored\n');
      mkdirSync(join(root, 'ws', 'build'));
      write('build/out.js', 'ignored too\n');
    };
    const steps: Array<() => void> = [
      () => write('src/a.ts', 'a changed\n'),
      () => {
        mkdirSync(join(root, 'ws', 'new', 'nested'), { recursive: true });
        write('new/nested/c.ts', 'c\n');
        write('new/d.ts', 'd\n');
      },
      () => rmSync(join(root, 'ws', 'gone'), { recursive: true }),
      () => renameSync(join(root, 'ws', 'old'), join(root, 'ws', 'moved')),
      () => {
        write('moved/y.md', 'y changed after the move\n');
        write('empty/now-here.txt', 'in a directory that had no file\n');
      },
      ignoredOnly,
      () => chmodSync(join(root, 'ws', 'src', 'deep', 'b.ts'), 0o755),
      () => symlinkSync('src/a.ts', join(root, 'ws', 'link')),
      () => {
        rmSync(join(root, 'ws', 'src', 'deep'), { recursive: true });
        mkdirSync(join(root, 'ws', 'src', 'deep'));
        write('src/deep/b.ts', 'b again, in a new directory of the same name\n');
      },
      // A .gitignore change shows files it hid: the watcher scans for that sync.
      () => write('.gitignore', 'build/\n'),
    ];
    for (const step of steps) {
      const [a, b] = await Promise.all([watched.openBracket(), scanned.openBracket()]);
      step();
      const [fromEvents, fromScan] = await Promise.all([watched.closeBracket(a), scanned.closeBracket(b)]);
      const shape = (list: Array<{ path: string; before: unknown }>) => list.map((c) => [c.path, c.before]).sort();
      expect(shape(fromEvents)).toEqual(shape(fromScan));
      expect(watched.lastSync).toBe(step === steps.at(-1) ? 'scan: .gitignore changed' : 'file events');
      // Only the step that writes ignored files changes nothing that counts.
      expect(fromScan.length > 0).toBe(step !== ignoredOnly);
    }
  });
});
