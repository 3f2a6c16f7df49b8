/**
 * Gathers streamed chunks and hands them on at most once per interval, so a chatty command
 * becomes a few dozen events a second instead of thousands.
 */
export class OutputCoalescer {
  private buffer = '';
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly emit: (chunk: string) => void,
    private readonly intervalMs: number,
  ) {}

  push(chunk: string): void {
    this.buffer += chunk;
    if (!this.timer) this.timer = setTimeout(() => this.flush(), this.intervalMs);
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.buffer === '') return;
    const chunk = this.buffer;
    this.buffer = '';
    this.emit(chunk);
  }
}
