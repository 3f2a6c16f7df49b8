import { writeFileAtomic } from '@tandem/core';
import type { SessionEvent } from '@tandem/shared';
import type { AgentSlices } from '../agents/agent-slices.js';
import type { SessionLog } from './session-log.js';
import { SNAPSHOT_VERSION, type SessionSnapshot } from './session-snapshot.js';
import type { SessionStateFold } from './session-state-fold.js';
import { stringifyInSteps } from './stringify-in-steps.js';

/** A snapshot is written once this many events were written after the last one (or more, below). */
export const SNAPSHOT_EVERY = 2000;
/**
 * And not before the log grew by a quarter of the last snapshot's size: a conversation never
 * compacted can make a snapshot as large as the log, and writing it every 2,000 events would then
 * cost more than the log itself. So snapshot bytes written stay within 4x the log's bytes.
 */
const LOG_GROWTH_PER_SNAPSHOT_BYTE = 1 / 4;

export interface SnapshotWriterParts {
  file: string;
  log: SessionLog;
  /** The session's live conversation (fed at stamp time: it matches the log whenever the log is idle). */
  conversation: AgentSlices;
  /** Fed with each written event (by the session's owner). */
  state: SessionStateFold;
  /** The seq the snapshot on disk covers (0: none). */
  coveredSeq: number;
  onProblem(message: string): void;
  /** After each snapshot is on disk: the seq it covers and its size. */
  onWritten?(seq: number, bytes: number): void;
  every?: number;
}

/**
 * Keeps a session's `snapshot.json` near the end of its log, off the event path: after every
 * `every` written events it waits for a moment when every appended event is written (then the
 * live folds match the log exactly), captures the state there (copies that later events do not
 * change) and serialises it a step at a time and writes it atomically in the background, one
 * snapshot at a time. `finish` writes a last one after the log closed.
 */
export class SnapshotWriter {
  private covered: number;
  private readonly every: number;
  /** Events between snapshots: `every`, or more after a large snapshot. */
  private interval: number;
  private scheduled = false;
  private writing: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly parts: SnapshotWriterParts) {
    this.covered = parts.coveredSeq;
    this.every = parts.every ?? SNAPSHOT_EVERY;
    this.interval = this.every;
  }

  /** The seq the last snapshot written covers. */
  get coveredSeq(): number {
    return this.covered;
  }

  /** Called with each written persisted event: O(1) unless a snapshot is due. */
  observe(event: SessionEvent): void {
    if (event.seq - this.covered >= this.interval) this.schedule();
  }

  /** Writes one now if the log ran `every` events past the last one (after a load that read many). */
  catchUp(): void {
    if (this.parts.log.lastWrittenSeq - this.covered >= this.interval) this.schedule();
  }

  /** After the log closed: a last snapshot if anything was written since (and the log is long enough to want one). */
  async finish(): Promise<void> {
    await this.writing;
    const written = this.parts.log.lastWrittenSeq;
    if (!this.stopped && written > this.covered && written >= this.every) await this.write();
    this.stopped = true;
  }

  /** No snapshot after this (the session is being deleted). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.writing;
  }

  private schedule(): void {
    if (this.scheduled || this.writing || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.write();
    });
  }

  /** Captures the state if the log is idle (else the next written event tries again) and writes it. */
  private write(): Promise<void> {
    if (this.writing || this.stopped) return this.writing ?? Promise.resolve();
    const snapshot = this.capture();
    if (!snapshot) return Promise.resolve();
    const { file, onProblem } = this.parts;
    const { seq, offset } = snapshot.log;
    this.writing = stringifyInSteps(snapshot)
      .then(async (json) => {
        await writeFileAtomic(file, json);
        this.covered = Math.max(this.covered, seq);
        const bytesPerEvent = offset / seq;
        this.interval = Math.max(this.every, Math.ceil((json.length * LOG_GROWTH_PER_SNAPSHOT_BYTE) / bytesPerEvent));
        this.parts.onWritten?.(seq, json.length);
      })
      .catch((err: unknown) => onProblem(`cannot write ${file}: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        this.writing = undefined;
      });
    return this.writing;
  }

  /** Synchronous, so no event can be folded between the log's state and the folds'. */
  private capture(): SessionSnapshot | undefined {
    const log = this.parts.log.snapshot();
    if (!log) return undefined;
    const conversation = this.parts.conversation.snapshot();
    if (!conversation) {
      // The engine's conversation cannot be snapshotted: this session never gets one.
      this.stopped = true;
      return undefined;
    }
    return { version: SNAPSHOT_VERSION, log, state: this.parts.state.snapshot(), conversation };
  }
}
