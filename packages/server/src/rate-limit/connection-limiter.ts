import { systemClock, type Clock } from '@tandem/ai';

export interface ConnectionLimiterOptions {
  /** Tokens added per second (default 20). */
  ratePerSecond?: number;
  /** Bucket size: how many commands may arrive at once (default 40). */
  burst?: number;
  clock?: Clock;
}

export interface ConnectionLimiter {
  /** Takes one token; false means the command should be answered with `rate_limited`. */
  take(): boolean;
  /** How long until a token is available (0 when one is). */
  retryAfterMs(): number;
}

export const DEFAULT_CONNECTION_LIMIT = { ratePerSecond: 20, burst: 40 } as const;

/** Token bucket for one socket's client commands. O(1) per command, no timers. */
export function createConnectionLimiter(options: ConnectionLimiterOptions = {}): ConnectionLimiter {
  const rate = options.ratePerSecond ?? DEFAULT_CONNECTION_LIMIT.ratePerSecond;
  const burst = options.burst ?? DEFAULT_CONNECTION_LIMIT.burst;
  if (!(rate > 0) || !Number.isFinite(rate)) throw new RangeError(`ratePerSecond must be a positive number, got ${rate}`);
  if (!(burst >= 1) || !Number.isFinite(burst)) throw new RangeError(`burst must be at least 1, got ${burst}`);
  const clock = options.clock ?? systemClock;

  let tokens = burst;
  let last = clock.now();
  const refill = () => {
    const now = clock.now();
    if (now > last) tokens = Math.min(burst, tokens + ((now - last) * rate) / 1000);
    last = Math.max(last, now);
  };

  return {
    take() {
      refill();
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
    retryAfterMs() {
      refill();
      return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) * 1000) / rate);
    },
  };
}
