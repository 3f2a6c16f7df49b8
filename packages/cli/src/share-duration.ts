import { MAX_SHARE_SECONDS } from '@tandem/shared/share-terms';

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/**
 * `--expires 30m|2h|7d` as seconds (s, m, h, d, w; one number and one unit), at most 30 days.
 * Throws an Error that says what is accepted.
 */
export function parseShareDuration(text: string): number {
  const match = /^\s*(\d+)\s*([smhdw])\s*$/i.exec(text);
  const seconds = match ? Number(match[1]) * (UNITS[match[2]!.toLowerCase()] ?? 0) : Number.NaN;
  if (!Number.isInteger(seconds) || seconds < 1) throw new Error(`expected a duration like 30m, 2h or 7d, got "${text}"`);
  if (seconds > MAX_SHARE_SECONDS) throw new Error(`a share lasts at most 30 days (30d), got "${text}"`);
  return seconds;
}

/** Seconds in the largest whole unit that fits: `90m` stays `90m`, 86400 is `1d`. */
export function formatDuration(seconds: number): string {
  for (const unit of ['w', 'd', 'h', 'm'] as const) {
    const size = UNITS[unit]!;
    if (seconds >= size && seconds % size === 0) return `${seconds / size}${unit}`;
  }
  return `${seconds}s`;
}

/** How long from now until `iso`, roughly, for a listing: `in 3h`, `in 2d`, or `ended`. */
export function untilText(iso: string, nowMs = Date.now()): string {
  const left = Math.floor((Date.parse(iso) - nowMs) / 1000);
  if (left <= 0) return 'ended';
  if (left < 120) return `in ${left}s`;
  if (left < 3600) return `in ${Math.round(left / 60)}m`;
  if (left < 172_800) return `in ${Math.round(left / 3600)}h`;
  return `in ${Math.round(left / 86_400)}d`;
}
