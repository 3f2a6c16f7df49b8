import type { SessionEvent } from '@tandem/shared';
import { EventLogWriter } from './event-log-writer.js';
import { readEventLog, type LogReadProblem } from './event-log-reader.js';
import { cutPartialLastLine } from './repair-tail.js';

/** How many recent events stay in memory for replays; older ones are read from the file. */
export const DEFAULT_TAIL_SIZE = 2000;

/**
 * One session's persisted events: the JSONL file (the source of truth), its batched writer,
 * and a bounded in-memory tail so a reconnecting client is usually served from memory.
 */
export class SessionLog {
  private readonly writer: EventLogWriter;
  private tail: SessionEvent[] = [];
  private tailStart = 0;

  constructor(
    readonly path: string,
    private readonly onProblem: (message: string) => void,
    private readonly tailSize = DEFAULT_TAIL_SIZE,
  ) {
    this.writer = new EventLogWriter(path, (err) => onProblem(`cannot write ${path}: ${err.message}`));
  }

  /** Reads the whole file once at load time, keeping only the tail; `visit` sees every event. */
  async load(visit: (event: SessionEvent) => void): Promise<number> {
    let lastSeq = 0;
    for await (const event of readEventLog(this.path, (p: LogReadProblem) => this.onProblem(`${this.path}: ${p.reason}`))) {
      if (event.seq <= lastSeq) {
        this.onProblem(`${this.path}: event seq ${event.seq} is not after ${lastSeq}; skipped`);
        continue;
      }
      lastSeq = event.seq;
      this.remember(event);
      visit(event);
    }
    const cut = await cutPartialLastLine(this.path);
    if (cut > 0) this.onProblem(`${this.path}: removed an unfinished last line (${cut} bytes) left by a crash`);
    return lastSeq;
  }

  append(event: SessionEvent): void {
    this.writer.append(JSON.stringify(event));
    this.remember(event);
  }

  /** The persisted events with seq > afterSeq, in order. Only older history touches the file. */
  async after(afterSeq: number): Promise<SessionEvent[]> {
    const fromTail = this.tailAfter(afterSeq);
    const oldestInTail = this.tail[this.tailStart]?.seq;
    if (oldestInTail === undefined || oldestInTail <= afterSeq + 1) return fromTail;
    await this.writer.flush();
    const fromFile: SessionEvent[] = [];
    let last = afterSeq;
    for await (const event of readEventLog(this.path, () => undefined)) {
      if (event.seq > last) {
        fromFile.push(event);
        last = event.seq;
      }
    }
    // Events appended while the file was read are in the tail by now.
    return [...fromFile, ...this.tailAfter(last)];
  }

  /** Tail events with seq > afterSeq; synchronous, so no event can slip in between. */
  tailAfter(afterSeq: number): SessionEvent[] {
    const out: SessionEvent[] = [];
    for (let i = this.tailStart; i < this.tail.length; i++) {
      const event = this.tail[i]!;
      if (event.seq > afterSeq) out.push(event);
    }
    return out;
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }

  close(): Promise<void> {
    return this.writer.close();
  }

  private remember(event: SessionEvent): void {
    this.tail.push(event);
    if (this.tail.length - this.tailStart > this.tailSize) this.tailStart++;
    // Compact the backing array now and then instead of shifting on every event.
    if (this.tailStart > this.tailSize) {
      this.tail = this.tail.slice(this.tailStart);
      this.tailStart = 0;
    }
  }
}
