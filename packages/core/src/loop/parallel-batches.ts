/**
 * requirements A7: adjacent read-only calls form one batch that runs concurrently; any other call is a
 * batch of its own (a barrier), keeping its declared position. Batches run in order.
 */
export function planBatches<T>(calls: readonly T[], isReadOnly: (call: T) => boolean): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  for (const call of calls) {
    if (isReadOnly(call)) {
      current.push(call);
      continue;
    }
    if (current.length > 0) batches.push(current);
    current = [];
    batches.push([call]);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
