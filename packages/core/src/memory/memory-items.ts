import { randomUUID } from 'node:crypto';
import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { systemClock, type Clock } from '@tandem/ai';
import { writeFileAtomic } from '../base/atomic-write.js';
import { scanForInjection, type InjectionFinding } from './injection-scanner.js';
import { ITEMS_FILE, QUARANTINE_FILE } from './memory-dir.js';

/** Two kinds of recall memory (requirements H5): the agent's notes and the user's profile. */
export type MemoryKind = 'note' | 'profile';
export const MEMORY_KINDS: readonly MemoryKind[] = ['note', 'profile'];

export interface MemoryItem {
  id: string;
  kind: MemoryKind;
  text: string;
  createdAt: string;
  /** Who wrote it: a session id, `user`, `cli`. */
  source?: string;
}

export interface MemoryCaps {
  /** Total characters of all agent notes (default 8,000). */
  note: number;
  /** Total characters of the user profile (default 2,000). */
  profile: number;
}

export const DEFAULT_CAPS: MemoryCaps = { note: 8_000, profile: 2_000 };

export type AddItemResult =
  | { ok: true; item: MemoryItem; replaced?: string; findings: InjectionFinding[] }
  | { ok: false; quarantined: boolean; reason: string };

type Record_ = { op: 'add'; item: MemoryItem } | { op: 'remove'; id: string; at: string };

const KIND_LABEL: Record<MemoryKind, string> = { note: 'agent notes', profile: 'the user profile' };

/**
 * Recall items on disk: an append-only JSONL of add/remove records, replayed into a map at
 * open (bad lines are skipped and counted). Every write is scanned for prompt injection first;
 * a suspicious one goes to quarantine.jsonl — kept for the user to inspect, never loaded for
 * recall. Each kind has a character cap; a write past it is refused with what to do.
 */
export class ItemStore {
  private readonly items = new Map<string, MemoryItem>();
  private lines = 0;
  private queue: Promise<unknown> = Promise.resolve();
  /** Lines of items.jsonl that could not be read at open. */
  skippedLines = 0;

  private constructor(
    readonly dir: string,
    readonly caps: MemoryCaps,
    private readonly clock: Clock,
  ) {}

  static async open(dir: string, options: { caps?: Partial<MemoryCaps>; clock?: Clock } = {}): Promise<ItemStore> {
    const store = new ItemStore(dir, { ...DEFAULT_CAPS, ...options.caps }, options.clock ?? systemClock);
    await store.load();
    return store;
  }

  get itemsPath(): string {
    return path.join(this.dir, ITEMS_FILE);
  }

  get quarantinePath(): string {
    return path.join(this.dir, QUARANTINE_FILE);
  }

  list(kind?: MemoryKind): MemoryItem[] {
    return [...this.items.values()].filter((i) => !kind || i.kind === kind);
  }

  get(id: string): MemoryItem | undefined {
    return this.items.get(id);
  }

  /** Characters used by `kind`. */
  used(kind: MemoryKind): number {
    let n = 0;
    for (const i of this.items.values()) if (i.kind === kind) n += i.text.length;
    return n;
  }

  /** Adds an item (writes are serialised, so two concurrent adds cannot both pass the cap). */
  add(kind: MemoryKind, rawText: string, options: { replaceId?: string; source?: string } = {}): Promise<AddItemResult> {
    return this.serial(() => this.addNow(kind, rawText, options));
  }

  remove(id: string): Promise<boolean> {
    return this.serial(() => this.removeNow(id));
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async addNow(kind: MemoryKind, rawText: string, options: { replaceId?: string; source?: string }): Promise<AddItemResult> {
    if (!MEMORY_KINDS.includes(kind)) return { ok: false, quarantined: false, reason: `unknown memory kind "${String(kind)}"; use note or profile` };
    const text = typeof rawText === 'string' ? rawText.trim() : '';
    if (!text) return { ok: false, quarantined: false, reason: 'the text to remember is empty' };
    const replaced = options.replaceId ? this.items.get(options.replaceId) : undefined;
    if (options.replaceId && (!replaced || replaced.kind !== kind)) {
      return { ok: false, quarantined: false, reason: `there is no ${kind} with id ${options.replaceId} to replace` };
    }
    const scan = scanForInjection(text);
    if (scan.verdict === 'blocked') {
      const at = new Date(this.clock.now()).toISOString();
      await appendFile(this.quarantinePath, `${JSON.stringify({ at, kind, text, reason: scan.reason, findings: scan.findings, source: options.source })}\n`, {
        mode: 0o600,
      });
      return { ok: false, quarantined: true, reason: scan.reason };
    }
    const cap = this.caps[kind];
    const after = this.used(kind) - (replaced?.text.length ?? 0) + text.length;
    if (after > cap) {
      return {
        ok: false,
        quarantined: false,
        reason: `${KIND_LABEL[kind]} would use ${after} of ${cap} characters; shorten the text, or replace or remove an older ${kind} first`,
      };
    }
    const item: MemoryItem = {
      id: randomUUID().slice(0, 8),
      kind,
      text,
      createdAt: new Date(this.clock.now()).toISOString(),
      ...(options.source ? { source: options.source } : {}),
    };
    const records: Record_[] = [];
    if (replaced) records.push({ op: 'remove', id: replaced.id, at: item.createdAt });
    records.push({ op: 'add', item });
    await this.append(records);
    if (replaced) this.items.delete(replaced.id);
    this.items.set(item.id, item);
    return { ok: true, item, findings: scan.findings, ...(replaced ? { replaced: replaced.id } : {}) };
  }

  private async removeNow(id: string): Promise<boolean> {
    if (!this.items.has(id)) return false;
    await this.append([{ op: 'remove', id, at: new Date(this.clock.now()).toISOString() }]);
    this.items.delete(id);
    return true;
  }

  /** Quarantined writes, newest last (for `tandem memory show`). */
  async quarantined(): Promise<Array<{ at: string; kind: string; text: string; reason: string }>> {
    const text = await readFile(this.quarantinePath, 'utf8').catch(() => '');
    return text
      .split('\n')
      .filter(Boolean)
      .flatMap((l) => {
        try {
          return [JSON.parse(l)];
        } catch {
          return [];
        }
      });
  }

  private async append(records: Record_[]): Promise<void> {
    await appendFile(this.itemsPath, records.map((r) => `${JSON.stringify(r)}\n`).join(''), { mode: 0o600 });
    this.lines += records.length;
  }

  private async load(): Promise<void> {
    const text = await readFile(this.itemsPath, 'utf8').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return '';
      throw err;
    });
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      this.lines++;
      const record = parseRecord(line);
      if (!record) {
        this.skippedLines++;
        continue;
      }
      if (record.op === 'add') this.items.set(record.item.id, record.item);
      else this.items.delete(record.id);
    }
    // Many dead records: rewrite the log with the live items only (atomically).
    if (this.lines > 4 * this.items.size + 200) {
      const live = [...this.items.values()].map((item) => `${JSON.stringify({ op: 'add', item })}\n`).join('');
      await writeFileAtomic(this.itemsPath, live);
      this.lines = this.items.size;
    }
  }
}

function parseRecord(line: string): Record_ | undefined {
  try {
    const r = JSON.parse(line) as Record_;
    if (r.op === 'remove' && typeof r.id === 'string') return r;
    if (r.op === 'add' && r.item && typeof r.item.id === 'string' && typeof r.item.text === 'string' && MEMORY_KINDS.includes(r.item.kind)) return r;
  } catch {
    // fall through
  }
  return undefined;
}
