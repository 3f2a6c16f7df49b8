import { randomBytes } from 'node:crypto';

/**
 * The last bytes of a fast, chatty command can be lost between the kernel and node-pty on Linux:
 * once the shell exits and the terminal's last slave descriptor closes, the master's read fails
 * with EIO while output is still buffered (microsoft/node-pty#726, #85; measured here: 5 of 20
 * runs of a 4,000-line loop lost 117-303 lines). So the shell does not exit before its output
 * has been read: its EXIT trap prints a mark unique to the call and waits for a line on the
 * terminal; the runner, having read everything up to the mark, answers with that line. Every
 * byte before the mark was read while the terminal was still open.
 *
 * `EndMarkFilter` passes the output on without the mark and what follows it (the echo of the
 * answer), holding back only a tail that could be the mark's beginning.
 */
export class EndMarkFilter {
  readonly mark = `\u001b]tandem-end;${randomBytes(8).toString('hex')}\u0007`;
  private held = '';
  private seen = false;

  /** The part of `chunk` to pass on now; `ended` once the mark has gone by (answer it then). */
  push(chunk: string): { text: string; ended: boolean } {
    if (this.seen) return { text: '', ended: true };
    const text = this.held + chunk;
    const at = text.indexOf(this.mark);
    if (at >= 0) {
      this.seen = true;
      this.held = '';
      return { text: text.slice(0, at), ended: true };
    }
    const keep = this.partialMarkAtEnd(text);
    this.held = text.slice(text.length - keep);
    return { text: text.slice(0, text.length - keep), ended: false };
  }

  /** What was held back, at the end (a command that never reached its trap: exec, SIGKILL). */
  end(): string {
    const rest = this.seen ? '' : this.held;
    this.held = '';
    return rest;
  }

  /** The length of the longest end of `text` that is a beginning of the mark. */
  private partialMarkAtEnd(text: string): number {
    const from = text.lastIndexOf('\u001b', text.length - 1);
    if (from < 0 || text.length - from >= this.mark.length) return 0;
    return this.mark.startsWith(text.slice(from)) ? text.length - from : 0;
  }
}
