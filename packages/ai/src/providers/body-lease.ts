/**
 * A request body's memory, lent to whoever sends it and taken back once nobody can read it.
 *
 * Why: a model request's body is the whole conversation as bytes, made anew at every step
 * (80 KB at step 200 of the bench, more in a long session). Memory outside V8's heap is
 * given back only when the young-generation GC runs, which a server doing little else runs
 * every ~100 steps; until then every step's body stayed allocated (heaptrack: 3.6 MB still
 * held after a 200-step turn, one body per step), so the peak RSS grew with the session.
 * Bodies lent and given back are reused instead (request-bytes.ts).
 *
 * Who holds a body: the code that asked for it, until its request is over (an SDK retries with
 * the same bytes), and each transport sending it, until every byte is handed to the kernel or
 * the connection is gone (http-fetch.ts). The memory is reused only once no one holds it. A
 * transport that cannot tell when it is done with it (the global `fetch`) pins it: it is then
 * never reused, and the GC frees it as any other buffer.
 */
export class BodyLease {
  /** The asker, plus one per transport sending it. */
  private holders = 1;
  private askerDone = false;
  private pinned = false;

  constructor(private readonly onFree: () => void) {}

  /** No one holds it and no one pinned it: its memory may be written again. */
  get free(): boolean {
    return this.holders === 0 && !this.pinned;
  }

  /** The asker is done with the body: its request is over, retries included. Once; more calls do nothing. */
  done(): void {
    if (this.askerDone) return;
    this.askerDone = true;
    this.drop();
  }

  /** A transport starts sending the body; call what this returns once it can no longer read it (once is enough). */
  hold(): () => void {
    this.holders++;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.drop();
    };
  }

  /** The body went where no one says when it is done with it: never reuse its memory. */
  pin(): void {
    this.pinned = true;
  }

  private drop(): void {
    this.holders--;
    if (this.free) this.onFree();
  }
}

const leases = new WeakMap<ArrayBufferLike, BodyLease>();

/** Lends `bytes`' memory: `onFree` runs once no one holds it any more. */
export function lend(bytes: Uint8Array, onFree: () => void): BodyLease {
  const lease = new BodyLease(onFree);
  leases.set(bytes.buffer, lease);
  return lease;
}

/** The lease of a lent body (of any view on its memory); undefined for any other bytes. */
export function leaseOf(bytes: Uint8Array): BodyLease | undefined {
  return leases.get(bytes.buffer);
}
