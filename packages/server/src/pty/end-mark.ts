import { randomBytes } from 'node:crypto';

const ESC = 0x1b;
const EMPTY = Buffer.alloc(0);

/**
 * The last bytes of a fast, chatty command can be lost between the kernel and node-pty on Linux:
 * once the shell exits and the terminal's last slave descriptor closes, the master's read fails
 * with EIO while output is still buffered (microsoft/node-pty#726, #85; measured here: 5 of 20
 * runs of a 4,000-line loop lost 117-303 lines). So the shell does not exit before its output
 * has been read: its EXIT trap prints a mark unique to the call and waits for a line on the
 * terminal; the runner, having read everything up to the mark, answers with that line. Every
 * byte before the mark was read while the terminal was still open.
 *
 * `EndMarkFilter` passes the terminal's bytes on without the mark and what follows it (the echo
 * of the answer), holding back only a tail that could be the mark's beginning.
 */
export class EndMarkFilter {
  /** An OSC sequence: ESC once, at its start, then ASCII only. */
  readonly mark = `\u001b]tandem-end;${randomBytes(8).toString('hex')}\u0007`;
  private readonly markBytes = Buffer.from(this.mark, 'latin1');
  private held: Buffer = EMPTY;
  private seen = false;

  /** The part of `chunk` to pass on now; `ended` once the mark has gone by (answer it then). */
  push(chunk: Buffer): { bytes: Buffer; ended: boolean } {
    if (this.seen) return { bytes: EMPTY, ended: true };
    const bytes = this.held.length > 0 ? Buffer.concat([this.held, chunk]) : chunk;
    const at = bytes.indexOf(this.markBytes);
    if (at >= 0) {
      this.seen = true;
      this.held = EMPTY;
      return { bytes: bytes.subarray(0, at), ended: true };
    }
    const keep = this.partialMarkAtEnd(bytes);
    this.held = keep > 0 ? Buffer.from(bytes.subarray(bytes.length - keep)) : EMPTY;
    return { bytes: keep > 0 ? bytes.subarray(0, bytes.length - keep) : bytes, ended: false };
  }

  /** What was held back, at the end (a command that never reached its trap: exec, SIGKILL). */
  end(): Buffer {
    const rest = this.seen ? EMPTY : this.held;
    this.held = EMPTY;
    return rest;
  }

  /** The length of the end of `bytes` that is a beginning of the mark (only the last mark-length bytes are looked at). */
  private partialMarkAtEnd(bytes: Buffer): number {
    const from = bytes.indexOf(ESC, Math.max(0, bytes.length - this.markBytes.length + 1));
    if (from < 0) return 0;
    const tail = bytes.subarray(from);
    return this.markBytes.subarray(0, tail.length).equals(tail) ? tail.length : 0;
  }
}
