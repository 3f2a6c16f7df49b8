import type { Writable } from 'node:stream';

/**
 * A command's log file, written in batches: the pty's reads are queued corked and go to the
 * file together once per interval (one writev), not one write per read. The bytes are never
 * copied or joined on the way: fresh large buffers cost page faults, which on this kind of
 * machine made joining 10 MB of output cost as much as reading it.
 */
export class BatchedLog {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly stream: Writable,
    private readonly intervalMs: number,
  ) {}

  write(bytes: Buffer): void {
    if (!this.timer) {
      this.stream.cork();
      this.timer = setTimeout(() => this.flush(), this.intervalMs);
    }
    this.stream.write(bytes);
  }

  /** Hands what is queued to the file now. */
  flush(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.stream.uncork();
  }
}
