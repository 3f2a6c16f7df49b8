import { chmod, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { systemClock, type Clock } from '@tandem/ai';
import { writeFileAtomic } from '@tandem/core';
import { newShareRecord, ShareRecordSchema, shareEndedAt, shareTokenHash, worthKeeping, type NewShare, type ShareRecord } from './share-record.js';
import type { ShareStore } from './share-store.js';
import { parseStoredJson } from '../parse-stored-json.js';

export const SHARES_FILE = 'shares.json';

/** On disk: `{ version: 1, shares: ShareRecord[] }`, mode 0600. */
interface SharesFile {
  version: 1;
  shares: ShareRecord[];
}

/**
 * A single node's shares in `<dataDir>/shares.json` (mode 0600): small, read once at start,
 * written atomically on every change. Looking a token up is a map lookup by its hash. A damaged
 * file never stops the server: it is copied aside and the store starts empty (reported in
 * `warnings`), which only means earlier share links stop working.
 */
export class FileShareStore implements ShareStore {
  readonly file: string;
  readonly warnings: string[] = [];
  private records = new Map<string, ShareRecord>();
  private byHash = new Map<string, string>();
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    dataDir: string,
    private readonly clock: Clock,
  ) {
    this.file = path.join(dataDir, SHARES_FILE);
  }

  static async open(dataDir: string, clock: Clock = systemClock): Promise<FileShareStore> {
    const store = new FileShareStore(dataDir, clock);
    try {
      await mkdir(dataDir, { recursive: true });
      await store.load();
    } catch (error) {
      throw new Error(`cannot read the shares in ${store.file}: ${(error as Error).message}; check that the data directory is readable and writable`, {
        cause: error,
      });
    }
    return store;
  }

  create(input: NewShare): Promise<{ record: ShareRecord; token: string }> {
    return this.exclusive(async () => {
      const created = newShareRecord(input, this.clock.now());
      const next = new Map(this.records);
      next.set(created.record.id, created.record);
      await this.save(next);
      return created;
    });
  }

  async list(sessionId?: string): Promise<ShareRecord[]> {
    const now = this.clock.now();
    return [...this.records.values()].filter((r) => (sessionId === undefined || r.sessionId === sessionId) && worthKeeping(r, now));
  }

  async get(id: string): Promise<ShareRecord | undefined> {
    return this.records.get(id);
  }

  async findByToken(token: string): Promise<ShareRecord | undefined> {
    const id = this.byHash.get(shareTokenHash(token));
    return id === undefined ? undefined : this.records.get(id);
  }

  revoke(id: string, by: string): Promise<ShareRecord | undefined> {
    return this.exclusive(async () => {
      const record = this.records.get(id);
      if (!record || shareEndedAt(record, this.clock.now()) !== undefined) return record;
      const revoked: ShareRecord = { ...record, revokedAt: new Date(this.clock.now()).toISOString(), revokedBy: by };
      const next = new Map(this.records);
      next.set(id, revoked);
      await this.save(next);
      return revoked;
    });
  }

  private async load(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    const parsed = await parseStoredJson(this.file, text, this.clock.now(), 'no shares');
    if ('warning' in parsed) {
      this.warnings.push(parsed.warning);
      return;
    }
    const data = parsed.data;
    const list = (data as Partial<SharesFile> | null)?.shares;
    const records = new Map<string, ShareRecord>();
    for (const entry of Array.isArray(list) ? list : []) {
      const parsed = ShareRecordSchema.safeParse(entry);
      if (parsed.success) records.set(parsed.data.id, parsed.data);
      else this.warnings.push(`skipped an invalid share in ${this.file}`);
    }
    this.use(records);
    // An older file may have been created with a wider mode: shares are secrets' hashes, keep them private.
    await chmod(this.file, 0o600).catch(() => {});
  }

  private async save(next: Map<string, ShareRecord>): Promise<void> {
    const now = this.clock.now();
    const kept = new Map([...next].filter(([, record]) => worthKeeping(record, now)));
    const data: SharesFile = { version: 1, shares: [...kept.values()] };
    await writeFileAtomic(this.file, `${JSON.stringify(data, null, 2)}\n`);
    this.use(kept);
  }

  private use(records: Map<string, ShareRecord>): void {
    this.records = records;
    this.byHash = new Map([...records.values()].map((r) => [r.tokenHash, r.id]));
  }

  /** One change at a time, so two changes never write over each other. */
  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => {});
    return run;
  }
}
