import { epochOfWallClock } from './zoned-time.js';

export interface CalendarRange {
  fromMs: number;
  /** Exclusive. */
  toMs: number;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * The tool's `from`/`to` in the user's zone: a date is that whole day (`to` includes its day),
 * a date-time without offset is wall-clock time in the zone, one with `Z` or an offset is exact.
 */
export function parseRange(from: string, to: string, zone: string): CalendarRange {
  const fromMs = instant(from, zone, 'start', 'from');
  const toMs = instant(to, zone, 'end', 'to');
  if (toMs <= fromMs) throw new Error(`"to" (${to}) must be after "from" (${from})`);
  return { fromMs, toMs };
}

function instant(value: string, zone: string, edge: 'start' | 'end', name: string): number {
  const trimmed = value.trim();
  const date = DATE_ONLY.exec(trimmed);
  if (date) {
    const [y, m, d] = date.slice(1).map(Number) as [number, number, number];
    const day = edge === 'start' ? new Date(Date.UTC(y, m - 1, d)) : new Date(Date.UTC(y, m - 1, d + 1));
    return epochOfWallClock({ year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate(), hour: 0, minute: 0, second: 0 }, zone);
  }
  const local = LOCAL_DATE_TIME.exec(trimmed);
  if (local) {
    const [y, m, d, h, min, s] = local.slice(1).map((v) => Number(v ?? 0)) as [number, number, number, number, number, number];
    return epochOfWallClock({ year: y, month: m, day: d, hour: h, minute: min, second: s }, zone);
  }
  const ms = Date.parse(trimmed);
  if (Number.isNaN(ms))
    throw new Error(`"${name}" must be an ISO 8601 date (2026-12-02) or date-time (2026-12-02T09:00, 2026-12-02T09:00:00Z); got "${value}"`);
  return ms;
}
