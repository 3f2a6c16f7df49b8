/**
 * Wall-clock time in an IANA zone ↔ instants, with Intl only (no zone database of our own).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

export function isValidZone(zone: string): boolean {
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export function wallClockAt(epochMs: number, zone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(new Date(epochMs))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

/** Offset of `zone` from UTC at that instant, in minutes (Berlin in winter: 60). */
export function offsetMinutes(epochMs: number, zone: string): number {
  const w = wallClockAt(epochMs, zone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUtc - Math.floor(epochMs / 1000) * 1000) / 60_000);
}

/** The instant at which the wall clock in `zone` shows `w` (the earlier one in a DST overlap). */
export function epochOfWallClock(w: WallClock, zone: string): number {
  const naive = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  let guess = naive - offsetMinutes(naive, zone) * 60_000;
  guess = naive - offsetMinutes(guess, zone) * 60_000;
  return guess;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `2026-12-01T09:00:00+01:00`: the instant as the wall clock in `zone` shows it. */
export function isoInZone(epochMs: number, zone: string): string {
  const w = wallClockAt(epochMs, zone);
  const off = offsetMinutes(epochMs, zone);
  const sign = off < 0 ? '-' : '+';
  const abs = Math.abs(off);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** `2026-12-01`: the calendar day in `zone` at that instant. */
export function dayInZone(epochMs: number, zone: string): string {
  const w = wallClockAt(epochMs, zone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
}
