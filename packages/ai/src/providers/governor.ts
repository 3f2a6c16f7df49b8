import { systemClock, type Clock } from '../ports/clock.js';

export interface GovernorOptions {
  clock?: Clock;
  /** Requests per minute per key unless the provider's settings say otherwise. */
  requestsPerMinute?: number;
}

/** A generous default: real limits come from the provider's 429s and from config.json. */
export const DEFAULT_REQUESTS_PER_MINUTE = 1000;

/** Account-level failures (rate limit, auth, billing) park a key this long (requirements M5). */
export const KEY_COOLDOWN_MS = 10 * 60_000;

interface Bucket {
  capacity: number;
  tokens: number;
  /** Tokens regained per millisecond. */
  rate: number;
  refilledAt: number;
  /** A Retry-After from the provider holds every session's requests on this key until then. */
  pausedUntil: number;
}

export interface KeyCooldown {
  until: number;
  reason: string;
}

/**
 * Server-wide request governor, shared by every session: a token bucket per API key (requests
 * per minute), pauses from Retry-After, and the cooldowns of keys that failed at the account
 * level. Keys are known only by their secret-free id. Memory is proportional to the number of
 * keys, not to traffic.
 */
export class Governor {
  readonly clock: Clock;
  private readonly defaultRpm: number;
  private readonly buckets = new Map<string, Bucket>();
  private readonly cooldowns = new Map<string, KeyCooldown>();

  constructor(options: GovernorOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.defaultRpm = options.requestsPerMinute ?? DEFAULT_REQUESTS_PER_MINUTE;
  }

  private bucket(keyId: string, rpm: number | undefined): Bucket {
    const capacity = Math.max(1, rpm ?? this.defaultRpm);
    const now = this.clock.now();
    let b = this.buckets.get(keyId);
    if (!b) {
      b = { capacity, tokens: capacity, rate: capacity / 60_000, refilledAt: now, pausedUntil: 0 };
      this.buckets.set(keyId, b);
    } else if (b.capacity !== capacity) {
      b.capacity = capacity;
      b.rate = capacity / 60_000;
      b.tokens = Math.min(b.tokens, capacity);
    }
    if (now > b.refilledAt) {
      b.tokens = Math.min(b.capacity, b.tokens + (now - b.refilledAt) * b.rate);
      b.refilledAt = now;
    }
    return b;
  }

  /** Milliseconds until this key may send a request (0: now). Cooldowns are not counted here. */
  waitMs(keyId: string, rpm?: number): number {
    const b = this.bucket(keyId, rpm);
    const now = this.clock.now();
    const paused = Math.max(0, b.pausedUntil - now);
    const forToken = b.tokens >= 1 ? 0 : Math.ceil((1 - b.tokens) / b.rate);
    return Math.max(paused, forToken);
  }

  /** Waits (on the clock) until the key has a token, then takes it. Rejects when `signal` aborts. */
  async acquire(keyId: string, rpm: number | undefined, signal?: AbortSignal): Promise<void> {
    for (;;) {
      const wait = this.waitMs(keyId, rpm);
      if (wait === 0) {
        this.bucket(keyId, rpm).tokens -= 1;
        return;
      }
      await this.clock.sleep(wait, signal);
    }
  }

  /** Honours a provider's Retry-After: nobody sends on this key before it passes. */
  pause(keyId: string, ms: number): void {
    const b = this.bucket(keyId, undefined);
    b.pausedUntil = Math.max(b.pausedUntil, this.clock.now() + Math.max(0, ms));
  }

  /** Parks a key after an account-level failure; it is skipped until the cooldown ends. */
  coolDown(keyId: string, ms: number, reason: string): void {
    const until = this.clock.now() + Math.max(0, ms);
    const current = this.cooldowns.get(keyId);
    if (!current || current.until < until) this.cooldowns.set(keyId, { until, reason });
  }

  cooldown(keyId: string): KeyCooldown | undefined {
    const c = this.cooldowns.get(keyId);
    if (!c) return undefined;
    if (c.until <= this.clock.now()) {
      this.cooldowns.delete(keyId);
      return undefined;
    }
    return c;
  }

  isCooling(keyId: string): boolean {
    return this.cooldown(keyId) !== undefined;
  }
}
