import { statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { SessionEvent } from '@tandem/shared';
import { EventLogWriter } from './event-log-writer.js';
import { endsLineAt, readEventLog, readEventsBefore, type LogReadProblem } from './event-log-reader.js';
import { EventsInEffect } from './events-in-effect.js';
import type { LogSnapshot } from './log-snapshot.js';
import { cutPartialLastLine } from './repair-tail.js';
import { eventJson, forgetEventJson } from './event-json.js';

/** How many recent events stay in memory for replays; older ones are read from the file. */
export const DEFAULT_TAIL_SIZE = 2000;

/** Where older pages start in the file, remembered so the next page up reads only its own bytes. */
const MAX_PAGE_OFFSETS = 1000;
/** At load, every this many events the offset of a line is kept, so a page anywhere reads about this many lines. */
const CHECKPOINT_EVERY = 500;

/**
 * One session's persisted events: the JSONL file (the source of truth), its group-commit writer,
 * and a bounded in-memory tail so a reconnecting client is usually served from memory.
 *
 * Durable before visible: an appended event becomes visible (in the tail, replays, and the
 * `onVisible` listener that broadcasts it) only once its line is written. An ephemeral event given
 * to `send` becomes visible behind every event appended before it, so it can never overtake one.
 */
export class SessionLog {
  private readonly writer: EventLogWriter<SessionEvent>;
  private tail: SessionEvent[] = [];
  private tailStart = 0;
  private written = 0;
  /** When the last persisted event was stamped (its `ts`): when the session was last used. */
  private writtenTs: string | undefined;
  /** The seq of the last event given to `append` (equal to `written` when every line is written). */
  private appended = 0;
  /** The seq of the first event in the file (0 while empty): nothing is older. */
  private first = 0;
  private inEffect = new EventsInEffect();
  /** seq -> byte offset of that event's line, for the pages `before` has read from the file. */
  private readonly pageOffsets = new Map<number, number>();
  /** [seq, byte offset of its line], ascending, from the load: where a backward read of an old page can start. */
  private readonly checkpoints: Array<[number, number]> = [];
  private listener: (event: SessionEvent) => void = () => undefined;

  constructor(
    readonly path: string,
    private readonly onProblem: (message: string) => void,
    private readonly tailSize = DEFAULT_TAIL_SIZE,
  ) {
    this.writer = new EventLogWriter<SessionEvent>(
      path,
      (err) => onProblem(`cannot write ${path}: ${err.message}`),
      (events) => this.release(events),
    );
  }

  /** The seq of the last event written (and so visible); the next seq after a restart follows it. */
  get lastWrittenSeq(): number {
    return this.written;
  }

  /** The `ts` of the last event written or loaded, if any: when the session was last used (`tandem -c`). */
  get lastWrittenTs(): string | undefined {
    return this.writtenTs;
  }

  /** Called with each event as it becomes visible, in order (one listener: the session). */
  onVisible(listener: (event: SessionEvent) => void): void {
    this.listener = listener;
  }

  /** Reads the whole file once at load time, keeping only the tail; `visit` sees every event. */
  async load(visit: (event: SessionEvent) => void): Promise<number> {
    return this.readFrom(0, 0, visit);
  }

  /**
   * Continues from a snapshot: the file is read only after `snapshot.offset`; the tail before it
   * is read back (at most the tail size). Returns why the snapshot does not fit this file (then
   * nothing changed: load the whole file instead): it reaches past the end (a crash cut the log),
   * its offset is not a line's end, or the line before it is not the event it names.
   */
  async loadFrom(snapshot: LogSnapshot, visit: (event: SessionEvent) => void): Promise<number | string> {
    const size = await stat(this.path).then(
      (s) => s.size,
      () => 0,
    );
    if (snapshot.offset > size) return `it covers ${snapshot.offset} bytes, the log has ${size}`;
    const recent = await readEventsBefore(this.path, {
      beforeSeq: snapshot.seq + 1,
      limit: Math.max(1, this.tailSize),
      maxSeq: snapshot.seq,
      endOffset: snapshot.offset,
    });
    const last = recent.events.at(-1);
    if (!(await endsLineAt(this.path, snapshot.offset)) || last?.seq !== snapshot.seq || last.ts !== snapshot.ts) {
      return `the log before byte ${snapshot.offset} does not end with event ${snapshot.seq}`;
    }
    this.first = snapshot.first;
    this.checkpoints.push(...snapshot.checkpoints);
    this.inEffect = EventsInEffect.from(snapshot.inEffect);
    this.tail = this.tailSize > 0 ? recent.events : [];
    this.writtenTs = snapshot.ts;
    return this.readFrom(snapshot.offset, snapshot.seq, visit);
  }

  /**
   * What `loadFrom` needs to continue from here; only while every appended event is written (else
   * undefined; O(1) until then). Where the file ends is kept as a paging checkpoint too, so pages
   * of events written since the load start near their bytes after a restart.
   */
  snapshot(): LogSnapshot | undefined {
    const last = this.tail.at(-1);
    if (this.appended !== this.written || this.written === 0 || last?.seq !== this.written) return undefined;
    // Every appended line is written, so the file ends right after the last written event's line.
    const offset = statSync(this.path, { throwIfNoEntry: false })?.size ?? 0;
    if (offset === 0) return undefined;
    // Also a paging checkpoint: every event before the next one lies before this offset.
    if (this.written + 1 > (this.checkpoints.at(-1)?.[0] ?? 0)) this.checkpoints.push([this.written + 1, offset]);
    return {
      seq: this.written,
      ts: last.ts,
      offset,
      first: this.first,
      checkpoints: [...this.checkpoints],
      inEffect: this.inEffect.before(Number.POSITIVE_INFINITY),
    };
  }

  private async readFrom(start: number, afterSeq: number, visit: (event: SessionEvent) => void): Promise<number> {
    let lastSeq = afterSeq;
    let counted = 0;
    const onOffset = (seq: number, offset: number) => {
      if (counted++ % CHECKPOINT_EVERY === 0 && seq > (this.checkpoints.at(-1)?.[0] ?? 0)) this.checkpoints.push([seq, offset]);
    };
    const problem = (p: LogReadProblem) => this.onProblem(`${this.path}: ${p.reason}`);
    for await (const event of readEventLog(this.path, problem, onOffset, start)) {
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
    this.written = lastSeq;
    this.appended = lastSeq;
    return lastSeq;
  }

  /**
   * Queues a persisted event; it is written with the next batch and then becomes visible.
   * `sync`: fdatasync the file once this batch is written (the end of a turn).
   */
  append(event: SessionEvent, sync = false): void {
    this.appended = event.seq;
    this.writer.append(eventJson(event), event);
    if (sync) this.writer.syncAfter();
  }

  /** An ephemeral event (no line): visible behind every event appended before it, at once if none is pending. */
  send(event: SessionEvent): void {
    this.writer.after(event);
  }

  /** The persisted events with seq > afterSeq, in order. Only older history touches the file. */
  async after(afterSeq: number): Promise<SessionEvent[]> {
    const fromTail = this.tailAfter(afterSeq);
    const oldestInTail = this.tail[this.tailStart]?.seq;
    if (oldestInTail === undefined || oldestInTail <= afterSeq + 1) return fromTail;
    // The tail holds only written events, so the file has every one of them already. A line the
    // file shows whose batch is not handed over yet is left to the tail (or the live stream).
    const fromFile: SessionEvent[] = [];
    let last = afterSeq;
    for await (const event of readEventLog(this.path, () => undefined)) {
      if (event.seq > last && event.seq <= this.written) {
        fromFile.push(event);
        last = event.seq;
      }
    }
    // Events that became visible while the file was read are in the tail by now.
    return [...fromFile, ...this.tailAfter(last)];
  }

  /**
   * Up to `limit` persisted events with seq < beforeSeq, the newest of them, in order. Served from
   * memory when the in-memory tail covers the page; otherwise read backwards from the file, from
   * where the previous page started when `beforeSeq` begins one, so paging up a long log reads each
   * page's bytes once instead of the whole file.
   */
  async before(beforeSeq: number, limit: number): Promise<SessionEvent[]> {
    const fromTail = this.tailBefore(beforeSeq, limit);
    const oldestInTail = this.tail[this.tailStart]?.seq;
    if (fromTail.length === limit || oldestInTail === undefined || oldestInTail <= this.first) return fromTail;
    const page = await readEventsBefore(this.path, {
      beforeSeq,
      limit,
      maxSeq: this.written,
      endOffset: this.pageOffsets.get(beforeSeq) ?? this.checkpointFrom(beforeSeq),
    });
    const oldest = page.events[0];
    if (oldest && page.offset > 0) {
      if (this.pageOffsets.size >= MAX_PAGE_OFFSETS) this.pageOffsets.clear();
      this.pageOffsets.set(oldest.seq, page.offset);
    }
    return page.events;
  }

  /** The last `count` persisted events, in order (from memory when the tail holds them). */
  last(count: number): Promise<SessionEvent[]> {
    return this.before(this.written + 1, count);
  }

  /** Whether the log holds events older than `seq`. */
  hasBefore(seq: number): boolean {
    return this.first > 0 && seq > this.first;
  }

  /** The events still in effect now (open turn, unanswered questions, last presence …) older than `seq`. */
  inEffectBefore(seq: number): SessionEvent[] {
    return this.inEffect.before(seq);
  }

  /** The offset of the first checkpoint line at or after `seq` (every event before it lies before that offset). */
  private checkpointFrom(seq: number): number | undefined {
    let low = 0;
    let high = this.checkpoints.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.checkpoints[mid]![0] < seq) low = mid + 1;
      else high = mid;
    }
    return this.checkpoints[low]?.[1];
  }

  private tailBefore(beforeSeq: number, limit: number): SessionEvent[] {
    let end = this.tail.length;
    while (end > this.tailStart && this.tail[end - 1]!.seq >= beforeSeq) end--;
    return this.tail.slice(Math.max(this.tailStart, end - limit), end);
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

  private release(events: SessionEvent[]): void {
    for (const event of events) {
      if (!event.ephemeral) {
        this.remember(event);
        this.written = event.seq;
      }
      try {
        this.listener(event);
      } catch (err) {
        this.onProblem(`a listener failed on event ${event.seq} (${event.type}): ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        forgetEventJson(event);
      }
    }
  }

  private remember(event: SessionEvent): void {
    if (this.first === 0) this.first = event.seq;
    this.writtenTs = event.ts;
    this.inEffect.observe(event);
    this.tail.push(event);
    if (this.tail.length - this.tailStart > this.tailSize) this.tailStart++;
    // Compact the backing array now and then instead of shifting on every event.
    if (this.tailStart > this.tailSize) {
      this.tail = this.tail.slice(this.tailStart);
      this.tailStart = 0;
    }
  }
}
