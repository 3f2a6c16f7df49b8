/** The same objects in the same order (identity, not equality): a list handed on again unchanged. */
export function sameItems<T>(a: readonly T[], b: readonly T[] | undefined): boolean {
  return b !== undefined && a.length === b.length && a.every((item, i) => item === b[i]);
}
