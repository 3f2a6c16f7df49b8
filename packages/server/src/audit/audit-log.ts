import { randomUUID } from 'node:crypto';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { AuditRecordSchema, type AuditRecord, type Danger } from '@tandem/shared';
import { startTimer, systemClock, type Clock } from '@tandem/ai';
import { createAuditMasker, type AuditMasker, type Env } from './audit-masker.js';
import { readLastLines } from './read-last-lines.js';
import { RingBuffer } from './ring-buffer.js';

export const AUDIT_FILE = 'agent-audit.jsonl';

/** One finished tool call, before masking. */
export interface AuditEntry {
  sessionId: string;
  turnId?: string;
  /** The agent that made the call. */
  agent?: string;
  callId: string;
  tool: string;
  danger: Danger;
  args: unknown;
  /** The tool's output; only a masked summary is kept. */
  output: string;
  isError: boolean;
  durationMs: number;
  decision: string;
  decidedBy?: string;
  /** How the call ended (`AuditRecord.outcome`). */
  outcome?: NonNullable<AuditRecord['outcome']>;
  /** The model request that asked for the call: its tokens and cost (`AuditRecord.usage`). */
  usage?: AuditRecord['usage'];
}

export interface AuditLogOptions {
  dataDir: string;
  clock?: Clock;
  /** Records kept in memory (requirements P6: 1000). */
  capacity?: number;
  /** A batch is written at most this long after its first record (default 100 ms). */
  flushIntervalMs?: number;
  /** …or as soon as it holds this many records (default 64). */
  flushBatch?: number;
  /** Whose secret values are masked (default: this process's environment). */
  env?: Env;
  newId?: () => string;
  /** Told when the file cannot be written; records stay in memory. */
  onError?(message: string): void;
}

/**
 * The audit log (requirements P6): one record per tool call, secrets masked. The last `capacity`
 * records stay in memory for `query`; every record is appended as one JSON line to
 * `<dataDir>/agent-audit.jsonl` through one open file, in small batches, so a crash loses at
 * most the last fraction of a second and never damages earlier lines. On open, the last
 * `capacity` records are read back; a line cut short by a crash is skipped.
 */
export class AuditLog {
  readonly file: string;
  /** Lines skipped on load (cut short or not a record). */
  readonly skippedOnLoad: number;
  private readonly ring: RingBuffer<AuditRecord>;
  private readonly masker: AuditMasker;
  private readonly clock: Clock;
  private readonly newId: () => string;
  private readonly flushIntervalMs: number;
  private readonly flushBatch: number;
  private readonly onError: (message: string) => void;
  private queue: string[] = [];
  private writing: Promise<void> = Promise.resolve();
  /** Stops the pending flush timer (`startTimer`). */
  private timer: (() => void) | null = null;
  private closed = false;

  private constructor(
    private readonly handle: FileHandle,
    options: AuditLogOptions,
    loaded: AuditRecord[],
    skipped: number,
  ) {
    this.file = path.join(options.dataDir, AUDIT_FILE);
    this.ring = new RingBuffer(options.capacity ?? 1000);
    for (const record of loaded) this.ring.push(record);
    this.skippedOnLoad = skipped;
    this.masker = createAuditMasker(options.env ?? process.env);
    this.clock = options.clock ?? systemClock;
    this.newId = options.newId ?? randomUUID;
    this.flushIntervalMs = options.flushIntervalMs ?? 100;
    this.flushBatch = options.flushBatch ?? 64;
    this.onError = options.onError ?? (() => {});
  }

  static async open(options: AuditLogOptions): Promise<AuditLog> {
    const file = path.join(options.dataDir, AUDIT_FILE);
    try {
      return await AuditLog.openFile(file, options);
    } catch (error) {
      throw new Error(`cannot open the audit log ${file}: ${(error as Error).message}; check that the data directory is writable`, { cause: error });
    }
  }

  private static async openFile(file: string, options: AuditLogOptions): Promise<AuditLog> {
    await mkdir(options.dataDir, { recursive: true });
    const capacity = options.capacity ?? 1000;
    const last = await readLastLines(file, capacity + 1);
    const records: AuditRecord[] = [];
    let skipped = last.partialTail ? 1 : 0;
    for (const line of last.lines) {
      const record = parseAuditRecord(line);
      if (record) records.push(record);
      else skipped++;
    }
    const handle = await open(file, 'a', 0o600);
    // A crash left half a line: end it, so the next record starts on a line of its own.
    if (last.partialTail) await handle.write('\n');
    return new AuditLog(handle, options, records.slice(-capacity), skipped);
  }

  /** Masks and records one tool call; the line reaches the file within the flush interval. */
  record(entry: AuditEntry): AuditRecord {
    const masked = this.masker.entry(entry.args, entry.output);
    const record: AuditRecord = {
      id: this.newId(),
      ts: new Date(this.clock.now()).toISOString(),
      sessionId: entry.sessionId,
      callId: entry.callId,
      tool: entry.tool,
      danger: entry.danger,
      args: masked.args,
      resultSummary: masked.summary,
      isError: entry.isError,
      durationMs: entry.durationMs,
      decision: entry.decision,
    };
    if (entry.turnId !== undefined) record.turnId = entry.turnId;
    if (entry.agent !== undefined) record.agent = entry.agent;
    if (entry.decidedBy !== undefined) record.decidedBy = entry.decidedBy;
    if (entry.outcome !== undefined) record.outcome = entry.outcome;
    if (entry.usage !== undefined) record.usage = entry.usage;
    this.ring.push(record);
    if (this.closed) {
      this.onError(`audit log is closed; record ${record.id} kept in memory only`);
      return record;
    }
    this.queue.push(`${JSON.stringify(record)}\n`);
    if (this.queue.length >= this.flushBatch) void this.flush();
    else this.scheduleFlush();
    return record;
  }

  /** Newest last; `limit` of the most recent (default 100), optionally one session's. */
  query(filter: { sessionId?: string; limit?: number } = {}): AuditRecord[] {
    const limit = Math.max(1, Math.min(filter.limit ?? 100, this.ring.capacity));
    const all = this.ring.toArray();
    const matching = filter.sessionId === undefined ? all : all.filter((r) => r.sessionId === filter.sessionId);
    return matching.slice(-limit);
  }

  /** Writes every queued record now. */
  flush(): Promise<void> {
    this.timer?.();
    this.timer = null;
    if (this.queue.length === 0) return this.writing;
    const batch = this.queue.join('');
    this.queue = [];
    this.writing = this.writing.then(async () => {
      try {
        await this.handle.write(batch);
      } catch (error) {
        this.onError(`could not append to ${this.file}: ${(error as Error).message}`);
      }
    });
    return this.writing;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.flush();
    this.closed = true;
    await this.handle.close();
  }

  private scheduleFlush(): void {
    if (this.timer) return;
    const timer = startTimer(this.clock, this.flushIntervalMs, () => {
      if (this.timer === timer) void this.flush();
    });
    this.timer = timer;
  }
}

export function parseAuditRecord(line: string): AuditRecord | null {
  try {
    const parsed = AuditRecordSchema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
