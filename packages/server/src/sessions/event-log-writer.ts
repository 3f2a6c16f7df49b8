import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Appends JSON lines to one file through one open file descriptor. Lines are buffered and
 * written together a few milliseconds later (or on `flush`), so a burst of events costs one
 * write, and nothing is ever rewritten: the cost of an append does not grow with the log.
 */
export class EventLogWriter {
  private pending: string[] = [];
  private handle: Promise<FileHandle> | undefined;
  private writing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private failure: Error | undefined;

  constructor(
    readonly path: string,
    private readonly onError: (error: Error) => void,
    private readonly delayMs = 4,
  ) {}

  append(line: string): void {
    if (this.closed) throw new Error(`event log ${this.path} is closed; the event was not written`);
    this.pending.push(line.endsWith('\n') ? line : `${line}\n`);
    if (!this.timer) this.timer = setTimeout(() => void this.flush(), this.delayMs);
  }

  /** Writes everything appended so far; resolves once it is on disk (in the OS's cache). */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.pending.length > 0) {
      const chunk = this.pending.join('');
      this.pending = [];
      this.writing = this.writing.then(() => this.write(chunk));
    }
    return this.writing;
  }

  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    if (this.handle) {
      const handle = await this.handle.catch(() => undefined);
      this.handle = undefined;
      await handle?.close().catch(() => undefined);
    }
  }

  private async write(chunk: string): Promise<void> {
    try {
      this.handle ??= mkdir(dirname(this.path), { recursive: true }).then(() => open(this.path, 'a', 0o600));
      const handle = await this.handle;
      await handle.appendFile(chunk, 'utf8');
      this.failure = undefined;
    } catch (err) {
      this.handle = undefined;
      const error = err instanceof Error ? err : new Error(String(err));
      // Report a failing disk once per failure streak, not once per event.
      if (!this.failure) this.onError(error);
      this.failure = error;
    }
  }
}
