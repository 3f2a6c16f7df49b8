/**
 * How long to wait before the next reconnection attempt: doubling from `firstMs` up to `maxMs`,
 * with up to 20 % jitter (`random` is injectable) so many clients of one restarted server do
 * not all knock at the same instant. Attempt 1 is the first retry.
 */
export function reconnectDelay(attempt: number, firstMs: number, maxMs: number, random: () => number = Math.random): number {
  const base = Math.min(maxMs, firstMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + 0.2 * random()));
}

/** `in 3 s` while waiting, `now` when the attempt is under way. */
export function countdownText(retryAt: number | undefined, now: number): string {
  if (retryAt === undefined) return 'now';
  const left = Math.ceil((retryAt - now) / 1000);
  return left > 0 ? `in ${left} s` : 'now';
}
