import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionEvent } from '@tandem/shared';
import { Checkpoints } from '@tandem/server';
import { fmt, median, percentile } from './stats.js';
import { printTable } from './table.js';

const FILES = Number(process.env.BENCH_CHECKPOINT_FILES ?? 20_000);
const PER_DIR = 100;
const TURNS = 12;

/** A 20,000-file workspace: 200 folders of 100 source-sized files, plus an ignored node_modules. */
function makeWorkspace(dir: string): void {
  for (let d = 0; d < FILES / PER_DIR; d++) {
    const folder = join(dir, 'src', `module-${d}`);
    mkdirSync(folder, { recursive: true });
    for (let f = 0; f < PER_DIR; f++) writeFileSync(join(folder, `file-${f}.ts`), `export const value${f} = ${d * PER_DIR + f};\n`.repeat(20));
  }
  mkdirSync(join(dir, 'node_modules', 'dep'), { recursive: true });
  writeFileSync(join(dir, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
  writeFileSync(join(dir, '.gitignore'), 'node_modules/\n');
}

let seq = 0;
function event(type: string, fields: Record<string, unknown>): SessionEvent {
  return { sessionId: 'bench', seq: ++seq, ts: new Date().toISOString(), type, ...fields } as unknown as SessionEvent;
}

/**
 * Checkpoint cost per turn on a 20,000-file workspace (goal: ≤ 200 ms when few files change).
 * One turn here is what a typical turn does: one file edit by a file tool and one command that
 * changes two files and creates one. Measured: the time the checkpoint steps add to that turn
 * (the snapshot before the file tool, the snapshots around the command, the turn's end state),
 * not the edits themselves. Baselines in the same run on the same tree: `git status` and
 * `git add -A && git write-tree` in an ordinary repository of it (what any git-based checkpoint
 * pays at least once per turn).
 */
export async function benchCheckpoints(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'tandem-bench-checkpoints-'));
  const ws = join(root, 'workspace');
  const data = join(root, 'data');
  const sessionDir = join(data, 'sessions', 'bench');
  mkdirSync(sessionDir, { recursive: true });
  try {
    makeWorkspace(ws);
    const checkpoints = new Checkpoints({ dataDir: data });
    if (checkpoints.off) throw new Error(`checkpoints are off here: ${checkpoints.off}`);
    const session = checkpoints.forSession({ id: 'bench', dir: sessionDir, cwd: ws }, () => undefined)!;

    /** One turn: the time its calls waited for checkpoint steps, and all checkpoint work it caused (the steps after a call and at the turn's end run while the model thinks). */
    const turn = async (n: number): Promise<{ waited: number; total: number }> => {
      let waited = 0;
      const timed = async (fn: () => Promise<unknown>) => {
        const started = performance.now();
        await fn();
        return performance.now() - started;
      };
      const turnId = `turn-${n}`;
      session.observe(event('turn_started', { turnId, model: 'bench' }));
      const edited = join(ws, 'src', `module-${n % 200}`, 'file-1.ts');
      waited += await timed(() =>
        session.beforeCall({ turnId, callId: `edit-${n}`, tool: 'edit_file', args: {}, danger: 'medium', readOnly: false, paths: [edited] }),
      );
      await writeFile(edited, `// turn ${n}\n`);
      session.observe(event('tool_result', { turnId, callId: `edit-${n}`, tool: 'edit_file', isError: false, output: 'ok', durationMs: 1 }));
      // The command's sync before waits for the steps queued after the edit: counted as waiting.
      waited += await timed(() =>
        session.beforeCall({
          turnId,
          callId: `cmd-${n}`,
          tool: 'run_command',
          args: { command: 'x' },
          danger: 'dangerous',
          readOnly: false,
          unknownWrites: true,
        }),
      );
      await writeFile(join(ws, 'src', `module-${(n + 1) % 200}`, 'file-2.ts'), `// command ${n}\n`);
      await writeFile(join(ws, 'src', `module-${(n + 2) % 200}`, 'file-3.ts'), `// command ${n}\n`);
      await writeFile(join(ws, `created-${n}.txt`), `created by turn ${n}\n`);
      session.observe(event('tool_result', { turnId, callId: `cmd-${n}`, tool: 'run_command', isError: false, output: 'ok', durationMs: 1 }));
      session.observe(event('turn_done', { turnId, iterations: 2 }));
      const after = await timed(() => session.flushed());
      return { waited, total: waited + after };
    };

    const first = await turn(0);
    const warm: Array<{ waited: number; total: number }> = [];
    for (let n = 1; n <= TURNS; n++) warm.push(await turn(n));
    const total = warm.map((t) => t.total);
    const waited = warm.map((t) => t.waited);

    // Baselines: an ordinary git repository of the same tree.
    execFileSync('git', ['init', '-q'], { cwd: ws });
    execFileSync('git', ['add', '-A'], { cwd: ws });
    const git = (args: string[]) => {
      const started = performance.now();
      execFileSync('git', args, { cwd: ws, stdio: 'ignore' });
      return performance.now() - started;
    };
    const status: number[] = [];
    const addWrite: number[] = [];
    for (let n = 0; n < TURNS; n++) {
      await writeFile(join(ws, 'src', 'module-7', 'file-9.ts'), `// baseline ${n}\n`);
      status.push(git(['status', '--porcelain']));
      addWrite.push(git(['add', '-A']) + git(['write-tree']));
    }
    printTable(
      `checkpoints: time per turn on a ${FILES.toLocaleString('en')}-file workspace (1 file-tool edit + 1 command changing 3 files; goal ≤ 200 ms)`,
      ['what', 'median ms', 'p90 ms', 'runs'],
      [
        ['tandem checkpoint, all work per turn (warm)', fmt(median(total), 1), fmt(percentile(total, 90), 1), String(total.length)],
        ['tandem checkpoint, what the turn’s calls wait for (warm)', fmt(median(waited), 1), fmt(percentile(waited, 90), 1), String(waited.length)],
        ['tandem checkpoint, first turn (indexes the workspace once)', fmt(first.total, 1), '', '1'],
        ['baseline: git status --porcelain', fmt(median(status), 1), fmt(percentile(status, 90), 1), String(status.length)],
        ['baseline: git add -A && git write-tree', fmt(median(addWrite), 1), fmt(percentile(addWrite, 90), 1), String(addWrite.length)],
      ],
    );
    await checkpoints.settled();
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
