/**
 * A single-consumer queue that turns pushes from several async producers (the model stream,
 * tools streaming output concurrently) into one ordered async iterable.
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private head = 0;
  private waiter: (() => void) | undefined;
  private ended = false;
  private failure: { error: unknown } | undefined;
  private drainWaiters: (() => void)[] = [];
  private idle = false;
  private closed = false;

  push(item: T): void {
    if (this.ended) return;
    this.items.push(item);
    this.wake();
  }

  /** No more items; the consumer finishes after draining what is queued. */
  end(): void {
    this.ended = true;
    this.wake();
  }

  /** Ends the queue with an error, raised to the consumer after the queued items. */
  fail(error: unknown): void {
    this.failure = { error };
    this.end();
  }

  /**
   * Resolves once the consumer has taken every queued item and asked for the next one, i.e.
   * it has handled everything pushed so far. Resolves at once if the consumer went away.
   */
  drained(): Promise<void> {
    if (this.closed || (this.idle && this.head >= this.items.length)) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  private releaseDrainWaiters(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const w of waiters) w();
  }

  private wake(): void {
    const w = this.waiter;
    this.waiter = undefined;
    w?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    try {
      yield* this.drain();
    } finally {
      this.closed = true;
      this.releaseDrainWaiters();
    }
  }

  private async *drain(): AsyncGenerator<T> {
    for (;;) {
      if (this.head < this.items.length) {
        const item = this.items[this.head] as T;
        this.items[this.head] = undefined as T;
        this.head += 1;
        if (this.head > 1024 && this.head * 2 > this.items.length) {
          this.items.splice(0, this.head);
          this.head = 0;
        }
        yield item;
        continue;
      }
      if (this.ended) {
        if (this.failure) throw this.failure.error;
        return;
      }
      this.idle = true;
      this.releaseDrainWaiters();
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
      });
      this.idle = false;
    }
  }
}
