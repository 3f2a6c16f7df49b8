/** A loader that runs once and remembers its value; see `loadOnce`. */
export interface OnceLoader<T> {
  (): Promise<T>;
  /** The value once a load has succeeded, else undefined. */
  current(): T | undefined;
}

/**
 * Wraps an expensive load (a heavy module brought in on first use) so it runs once per process:
 * callers share one promise, and a failed load is forgotten so the next call tries again.
 */
export function loadOnce<T>(load: () => Promise<T>): OnceLoader<T> {
  let loading: Promise<T> | undefined;
  let value: T | undefined;
  const loader = (): Promise<T> =>
    (loading ??= load().then(
      (loaded) => (value = loaded),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  return Object.assign(loader, { current: () => value });
}
