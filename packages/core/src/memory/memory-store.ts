import { open, readdir, readFile, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic, type AtomicWriteOps } from '../base/atomic-write.js';
import { searchHistoryText, type HistorySearchOptions, type HistorySearchResult } from './history-search.js';
import { ensureMemoryDir, HISTORY_FILE, MEMORY_FILE } from './memory-dir.js';

/**
 * One workspace's long-term memory on disk (requirements H1): MEMORY.md (the whole current memory,
 * replaced atomically) and HISTORY.md (append-only, one dated entry per consolidation).
 * Writes within one store are serialised.
 */
export class MemoryStore {
  readonly memoryPath: string;
  readonly historyPath: string;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly dir: string,
    private readonly writeOps: Partial<AtomicWriteOps>,
  ) {
    this.memoryPath = path.join(dir, MEMORY_FILE);
    this.historyPath = path.join(dir, HISTORY_FILE);
  }

  /** Opens (creating if needed) the memory of `workspace` under `dataDir`. */
  static async open(dataDir: string, workspace: string, options: { writeOps?: Partial<AtomicWriteOps> } = {}): Promise<MemoryStore> {
    const dir = await ensureMemoryDir(dataDir, workspace);
    const store = new MemoryStore(dir, options.writeOps ?? {});
    await store.removeStaleTemps();
    return store;
  }

  /** Opens a store on an existing directory (tests, tools that already know it). */
  static async openDir(dir: string, options: { writeOps?: Partial<AtomicWriteOps> } = {}): Promise<MemoryStore> {
    const store = new MemoryStore(dir, options.writeOps ?? {});
    await store.removeStaleTemps();
    return store;
  }

  async readMemory(): Promise<string> {
    return readOptional(this.memoryPath);
  }

  async readHistory(): Promise<string> {
    return readOptional(this.historyPath);
  }

  /** Replaces MEMORY.md atomically: after a crash it holds the old text or the new, never a mix. */
  writeMemory(text: string): Promise<void> {
    return this.serial(() => writeFileAtomic(this.memoryPath, text.endsWith('\n') ? text : `${text}\n`, this.writeOps));
  }

  /** Appends one entry to HISTORY.md and fsyncs it. Earlier entries are never rewritten. */
  appendHistory(entry: string): Promise<void> {
    const text = entry.trim();
    if (!text) return Promise.resolve();
    return this.serial(async () => {
      const handle = await open(this.historyPath, 'a', 0o600);
      try {
        const { size } = await handle.stat();
        await handle.appendFile(`${size > 0 ? '\n' : ''}${text}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
    });
  }

  async searchHistory(pattern: string, options: HistorySearchOptions = {}): Promise<HistorySearchResult> {
    return searchHistoryText(await this.readHistory(), pattern, options);
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Temp files of writes that crashed more than ten minutes ago. */
  private async removeStaleTemps(): Promise<void> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    for (const name of names) {
      if (!name.startsWith(`.${MEMORY_FILE}.`) || !name.endsWith('.tmp')) continue;
      const file = path.join(this.dir, name);
      const info = await stat(file).catch(() => undefined);
      if (info && Date.now() - info.mtimeMs > 10 * 60_000) await unlink(file).catch(() => undefined);
    }
  }
}

async function readOptional(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw err;
  }
}
