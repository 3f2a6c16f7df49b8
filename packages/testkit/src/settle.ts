/** Lets pending promise chains and I/O callbacks run: `rounds` macrotask turns, no timers. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setImmediate(r));
}

/**
 * Waits until `condition` holds, letting real I/O (fs calls on the thread pool) complete in
 * between: first quick event-loop turns, then short pauses, up to `timeoutMs` of real time
 * (generous: the machine may be busy). It polls a condition; it never stands in for the clock.
 */
export async function until(condition: () => boolean, what = 'condition', timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let turn = 0; !condition(); turn++) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${timeoutMs} ms`);
    if (turn < 200) await settle(1);
    else await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
