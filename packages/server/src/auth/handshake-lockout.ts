import { systemClock, type Clock } from '@tandem/ai';

export interface HandshakeLockoutOptions {
  /** Refused handshakes from one address within `windowMs` that lock it out (default 20). */
  maxRefusals?: number;
  /** Default 60 s. */
  windowMs?: number;
  /** How long a locked address is refused, whatever token it sends (default 60 s). */
  lockMs?: number;
  /** Addresses remembered at most; the oldest is forgotten first (default 10,000). */
  maxAddresses?: number;
  clock?: Clock;
  /** Told once per lockout (the server logs it). */
  onLocked?(address: string, untilMs: number): void;
}

export const DEFAULT_HANDSHAKE_LOCKOUT = { maxRefusals: 20, windowMs: 60_000, lockMs: 60_000 } as const;

/**
 * Guessing tokens, slowed down: after `maxRefusals` refused handshakes from one address within
 * `windowMs`, that address is refused for `lockMs`. Memory is bounded (at most `maxRefusals`
 * times per address, `maxAddresses` addresses); no timers.
 */
export class HandshakeLockout {
  private readonly refusals = new Map<string, number[]>();
  private readonly lockedUntil = new Map<string, number>();
  private readonly max: number;
  private readonly windowMs: number;
  private readonly lockMs: number;
  private readonly maxAddresses: number;
  private readonly clock: Clock;

  constructor(private readonly options: HandshakeLockoutOptions = {}) {
    this.max = options.maxRefusals ?? DEFAULT_HANDSHAKE_LOCKOUT.maxRefusals;
    this.windowMs = options.windowMs ?? DEFAULT_HANDSHAKE_LOCKOUT.windowMs;
    this.lockMs = options.lockMs ?? DEFAULT_HANDSHAKE_LOCKOUT.lockMs;
    this.maxAddresses = options.maxAddresses ?? 10_000;
    this.clock = options.clock ?? systemClock;
  }

  /** True while the address is locked out. */
  isLocked(address: string): boolean {
    const until = this.lockedUntil.get(address);
    if (until === undefined) return false;
    if (this.clock.now() < until) return true;
    this.lockedUntil.delete(address);
    return false;
  }

  /** Counts one refused handshake from `address`; the one that reaches the limit locks it. */
  refused(address: string): void {
    const now = this.clock.now();
    const recent = (this.refusals.get(address) ?? []).filter((at) => now - at < this.windowMs);
    recent.push(now);
    this.refusals.delete(address); // re-inserted last: the map stays ordered oldest-first
    if (recent.length < this.max) {
      this.refusals.set(address, recent);
      this.forgetOldest();
      return;
    }
    const until = now + this.lockMs;
    this.lockedUntil.delete(address);
    this.lockedUntil.set(address, until);
    this.forgetOldest();
    this.options.onLocked?.(address, until);
  }

  private forgetOldest(): void {
    for (const map of [this.refusals, this.lockedUntil] as Map<string, unknown>[]) {
      while (map.size > this.maxAddresses) {
        const oldest = map.keys().next().value;
        if (oldest === undefined) break;
        map.delete(oldest);
      }
    }
  }
}
