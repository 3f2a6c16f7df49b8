/**
 * What a command printed, kept in memory with a bound: the first `headChars` and the last
 * `tailChars`, with a line saying how much was left out in between. The log file keeps it all.
 */
export class OutputCapture {
  private head = '';
  private tail: string[] = [];
  private tailLength = 0;
  private omitted = 0;

  constructor(
    private readonly headChars = 1_000_000,
    private readonly tailChars = 1_000_000,
  ) {}

  push(chunk: string): void {
    if (this.head.length < this.headChars) {
      const room = this.headChars - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
      if (chunk === '') return;
    }
    this.tail.push(chunk);
    this.tailLength += chunk.length;
    while (this.tailLength > this.tailChars && this.tail.length > 0) {
      const first = this.tail[0]!;
      const excess = this.tailLength - this.tailChars;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailLength -= first.length;
        this.omitted += first.length;
      } else {
        this.tail[0] = first.slice(excess);
        this.tailLength -= excess;
        this.omitted += excess;
      }
    }
  }

  text(logPath?: string): string {
    const tail = this.tail.join('');
    if (this.omitted === 0) return this.head + tail;
    const where = logPath ? `; the full output is in ${logPath}` : '';
    return `${this.head}\n[... ${this.omitted} characters left out${where} ...]\n${tail}`;
  }
}
