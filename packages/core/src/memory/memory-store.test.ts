import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '@tandem/testkit';
import { writeFileAtomic } from '../base/atomic-write.js';
import { memoryDirFor } from './memory-dir.js';
import { MemoryStore } from './memory-store.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../../..');

const dirs: TempDir[] = [];
async function tempDir(): Promise<TempDir> {
  const dir = await makeTempDir('tandem-memory-');
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => d.cleanup()));
});

describe('memory directory', () => {
  it('is one directory per workspace realpath, with workspace.txt naming it', async () => {
    const tmp = await tempDir();
    const ws = path.join(tmp.path, 'project');
    await mkdir(ws);
    await symlink(ws, path.join(tmp.path, 'link'));
    const data = path.join(tmp.path, 'data');
    expect(await memoryDirFor(data, path.join(tmp.path, 'link'))).toBe(await memoryDirFor(data, ws));
    expect(await memoryDirFor(data, ws)).not.toBe(await memoryDirFor(data, tmp.path));
    const store = await MemoryStore.open(data, ws);
    expect(store.dir.startsWith(path.join(data, 'memory'))).toBe(true);
    expect((await readFile(path.join(store.dir, 'workspace.txt'), 'utf8')).trim()).toBe(ws);
    expect(await store.readMemory()).toBe('');
  });
});

describe('MemoryStore writes', () => {
  it('replaces MEMORY.md and appends HISTORY.md without rewriting earlier entries', async () => {
    const tmp = await tempDir();
    const store = await MemoryStore.open(tmp.path, tmp.path);
    await store.writeMemory('# Memory\n- likes tabs');
    await store.writeMemory('# Memory\n- likes spaces');
    expect(await store.readMemory()).toBe('# Memory\n- likes spaces\n');
    await store.appendHistory('[2026-12-01 10:00] first session');
    const first = await store.readHistory();
    await store.appendHistory('[2026-12-02 14:03] second session');
    const both = await store.readHistory();
    expect(both.startsWith(first)).toBe(true);
    expect(both).toBe('[2026-12-01 10:00] first session\n\n[2026-12-02 14:03] second session\n');
  });

  it('leaves the old MEMORY.md and no temp file when the rename fails', async () => {
    const tmp = await tempDir();
    const file = path.join(tmp.path, 'MEMORY.md');
    await writeFile(file, 'old memory\n');
    await expect(
      writeFileAtomic(file, 'new memory\n', {
        rename: async () => {
          throw Object.assign(new Error('EXDEV: simulated rename failure'), { code: 'EXDEV' });
        },
      }),
    ).rejects.toThrow(/simulated rename failure/);
    expect(await readFile(file, 'utf8')).toBe('old memory\n');
    expect(await readdir(tmp.path)).toEqual(['MEMORY.md']);
  });

  function runCrashWriter(dir: string, phase: 'mid-memory' | 'between', marker: RegExp): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'testing/crash-writer.test-helper.ts'), dir, phase], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (marker.test(out)) child.kill('SIGKILL'); // the crash, at a known point
      });
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve(out) : reject(new Error(`writer exited ${code}: ${err}`))));
    });
  }

  it('a process killed in the middle of writing MEMORY.md leaves the old file intact', async () => {
    const tmp = await tempDir();
    const store = await MemoryStore.openDir(tmp.path);
    await store.writeMemory('# Memory\n- old fact');
    await store.appendHistory('[2026-12-01 10:00] before');
    const out = await runCrashWriter(tmp.path, 'mid-memory', /paused \d+\/\d+/);
    expect(out).toMatch(/paused 65536\/\d+/); // killed with part of the new text written
    expect(await readFile(path.join(tmp.path, 'MEMORY.md'), 'utf8')).toBe('# Memory\n- old fact\n');
    expect(await readFile(path.join(tmp.path, 'HISTORY.md'), 'utf8')).toBe('[2026-12-01 10:00] before\n');
    const temps = (await readdir(tmp.path)).filter((n) => n.endsWith('.tmp'));
    expect(temps).toHaveLength(1); // the partial temp file, never renamed into place

    // A later open removes temp files of writes that died long ago.
    const old = new Date(Date.now() - 3600_000);
    await utimes(path.join(tmp.path, temps[0]!), old, old);
    const reopened = await MemoryStore.openDir(tmp.path);
    expect((await readdir(tmp.path)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(await reopened.readMemory()).toBe('# Memory\n- old fact\n');
  });

  it('a process killed between the two writes leaves the new MEMORY.md complete and HISTORY.md as it was', async () => {
    const tmp = await tempDir();
    const store = await MemoryStore.openDir(tmp.path);
    await store.writeMemory('# Memory\n- old fact');
    await store.appendHistory('[2026-12-01 10:00] before');
    await runCrashWriter(tmp.path, 'between', /between/);
    const memory = await readFile(path.join(tmp.path, 'MEMORY.md'), 'utf8');
    expect(memory).toBe(`# Memory\n\n${'new fact. '.repeat(50_000)}\n`);
    expect(await readFile(path.join(tmp.path, 'HISTORY.md'), 'utf8')).toBe('[2026-12-01 10:00] before\n');
    expect((await readdir(tmp.path)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});

describe('history search', () => {
  it('finds entries plain or by regex, newest first, capped', async () => {
    const tmp = await tempDir();
    const store = await MemoryStore.openDir(tmp.path);
    for (let d = 1; d <= 30; d++) await store.appendHistory(`[2026-11-${String(d).padStart(2, '0')} 09:00] Worked on the parser.\nTouched src/parser${d}.ts`);
    await store.appendHistory('[2026-12-01 10:00] Switched the build to turbo; decided on pnpm 12.');
    expect((await store.searchHistory('TURBO')).matches.map((m) => m.entry)).toEqual(['[2026-12-01 10:00] Switched the build to turbo; decided on pnpm 12.']);
    const regex = await store.searchHistory('parser(1|2)\\d\\.ts', { regex: true, limit: 5 });
    expect(regex.total).toBe(20);
    expect(regex.matches).toHaveLength(5);
    expect(regex.matches[0]!.entry).toContain('parser29.ts'); // newest first
    expect(regex.matches[0]!.line).toBeGreaterThan(regex.matches[1]!.line);
    await expect(store.searchHistory('([unclosed', { regex: true })).rejects.toThrow(/not a valid regular expression/);
    expect((await store.searchHistory('nothing like this')).total).toBe(0);
  });

  it('is empty, not an error, before any consolidation', async () => {
    const tmp = await tempDir();
    const store = await MemoryStore.openDir(tmp.path);
    expect(await store.searchHistory('x')).toEqual({ matches: [], total: 0 });
  });
});
