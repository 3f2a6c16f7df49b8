/** From this many attached clients on, presence changes are paced (below it every change goes out at once). */
export const PACED_PRESENCE_FROM = 64;
/** At `PACED_PRESENCE_FROM` clients a presence list goes out at most this often; the interval grows in step with the audience. */
export const PRESENCE_INTERVAL_MS = 500;

/** The least time between two lists for an audience of `size`: 500 ms at 64 clients, ~8 s at 1,000. */
export function presenceInterval(size: number): number {
  return size < PACED_PRESENCE_FROM ? 0 : (PRESENCE_INTERVAL_MS * size) / PACED_PRESENCE_FROM;
}

/**
 * When a session's `presence` event goes out. Each event lists every attached client and goes
 * to every attached client, so one per attach costs the square of the audience per attach:
 * 1,000 viewers attaching in a burst would write ~1,000 lists of up to 1,000 clients to up to
 * 1,000 sockets (tens of GB). Below `PACED_PRESENCE_FROM` clients every change is sent at once,
 * as always; from there on at most one list per `presenceInterval(size)`, the latest, so a burst
 * costs a few lists and the last one sent is always the current one. The interval grows with the
 * audience, so the bytes a second that lists cost grow with it only linearly (a list to 1,000
 * viewers is ~70 MB of socket writes; one per ~8 s).
 */
export class PresencePace {
  private timer: NodeJS.Timeout | undefined;
  private lastSentAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly send: () => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The list changed; `size` is how many clients it has now. */
  changed(size: number): void {
    if (this.timer) return; // the list already due goes out with this change in it
    const wait = this.lastSentAt + presenceInterval(size) - this.now();
    if (wait <= 0) return this.sendNow();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.sendNow();
    }, wait);
    this.timer.unref();
  }

  /** The session closes: a list still due is dropped (nobody is attached to read it). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private sendNow(): void {
    this.lastSentAt = this.now();
    this.send();
  }
}
