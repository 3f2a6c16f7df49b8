/** Retries in place before moving on (requirements M3: 1 s, 2 s, 4 s). */
export const MAX_RETRIES = 3;
export const BASE_DELAY_MS = 1000;
/** A Retry-After longer than this is not waited out in place: the next key or model is tried. */
export const MAX_IN_PLACE_WAIT_MS = 60_000;
/** Retries of a rate limit when no other key or model can answer: wait as told, then try again. */
export const MAX_ALONE_RETRIES = 8;
/** The longest Retry-After waited out when no other key or model can answer (longer: give up, say so). */
export const MAX_ALONE_WAIT_MS = 10 * 60_000;
/** Backoff without a Retry-After never waits longer than this per retry. */
export const MAX_BACKOFF_MS = 60_000;
/** Random extra delay, as a fraction of the base delay, so sessions do not retry in lockstep. */
export const JITTER = 0.1;

/**
 * Delay before retry number `attempt` (1-based): 1 s, 2 s, 4 s plus up to 10 % jitter. A
 * provider's Retry-After, when given, wins.
 */
export function backoffDelay(attempt: number, retryAfterMs?: number, random: () => number = Math.random): number {
  if (retryAfterMs !== undefined) return Math.max(0, Math.ceil(retryAfterMs));
  const base = Math.min(MAX_BACKOFF_MS, BASE_DELAY_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (1 + JITTER * Math.min(1, Math.max(0, random()))));
}
