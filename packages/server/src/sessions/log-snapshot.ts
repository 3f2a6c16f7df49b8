import type { SessionEvent } from '@tandem/shared';

/**
 * What a `SessionLog` needs to continue from a point in its file instead of its first line: the
 * last event covered (seq and time, checked against the file) and the byte offset right after its
 * line, the first seq, the paging checkpoints and the events still in effect. The in-memory tail
 * is not stored: it is read back from the file before `offset` (bounded by the tail size).
 */
export interface LogSnapshot {
  seq: number;
  ts: string;
  offset: number;
  first: number;
  checkpoints: Array<[number, number]>;
  inEffect: SessionEvent[];
}

/** Checks the shape of a stored `LogSnapshot`; throws saying what is wrong. */
export function checkLogSnapshot(value: unknown): LogSnapshot {
  const s = value as Partial<LogSnapshot> | null;
  const count = (n: unknown) => Number.isInteger(n) && (n as number) >= 0;
  if (typeof s !== 'object' || s === null) throw new Error('log snapshot: not an object');
  if (!count(s.seq) || (s.seq as number) < 1 || typeof s.ts !== 'string' || !count(s.offset) || (s.offset as number) < 1 || !count(s.first)) {
    throw new Error('log snapshot: seq, ts, offset or first is malformed');
  }
  if (!Array.isArray(s.checkpoints) || !s.checkpoints.every((c) => Array.isArray(c) && count(c[0]) && count(c[1]) && c[1] <= (s.offset as number))) {
    throw new Error('log snapshot: checkpoints are malformed');
  }
  if (!Array.isArray(s.inEffect) || !s.inEffect.every((e) => typeof e?.type === 'string' && count(e.seq) && e.seq <= (s.seq as number))) {
    throw new Error('log snapshot: in-effect events are malformed');
  }
  return s as LogSnapshot;
}
