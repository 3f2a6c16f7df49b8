import { type Clock, startTimer } from '@tandem/ai';

/** Thrown by `withDeadline` when the time ran out; the work's signal was aborted with it. */
export class DeadlineError extends Error {
  override readonly name = 'DeadlineError';
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${Math.round(timeoutMs / 1000)} s`);
  }
}

/**
 * Runs `work` with its own abort signal that fires after `timeoutMs` of `clock` time or when
 * `signal` aborts. Rejects with `DeadlineError` on timeout even if `work` ignores its signal.
 * With a fake clock a test steps past the deadline without sleeping.
 */
export async function withDeadline<T>(
  work: (signal: AbortSignal) => Promise<T>,
  options: { clock: Clock; timeoutMs: number; signal?: AbortSignal },
): Promise<T> {
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(options.signal?.reason ?? new Error('aborted'));
  if (options.signal?.aborted) onOuterAbort();
  else options.signal?.addEventListener('abort', onOuterAbort, { once: true });

  const aborted = new Promise<never>((_, reject) => {
    const fail = () => reject(controller.signal.reason);
    if (controller.signal.aborted) fail();
    else controller.signal.addEventListener('abort', fail, { once: true });
  });
  aborted.catch(() => undefined);
  const stopTimer = startTimer(options.clock, options.timeoutMs, () => controller.abort(new DeadlineError(options.timeoutMs)));
  try {
    return await Promise.race([work(controller.signal), aborted]);
  } finally {
    stopTimer();
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
}
