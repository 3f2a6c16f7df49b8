import { ProviderError } from '@tandem/ai';

/**
 * One compaction and one retry when the provider says the request does not fit the window
 * (a `context_overflow` ProviderError before any content). `compact` returns true when it
 * changed the model's view (and emitted its `compaction` event); false means there was nothing
 * to fold, and the original error propagates. A second overflow propagates too: no loops.
 */
export async function withOverflowRetry<T>(attempt: () => Promise<T>, compact: (error: ProviderError) => Promise<boolean>): Promise<T> {
  try {
    return await attempt();
  } catch (err) {
    if (!isRetryableOverflow(err)) throw err;
    if (!(await compact(err))) throw err;
    return attempt();
  }
}

/**
 * The streaming form for the agent loop: re-creates the stream once after compaction, as long
 * as the failed stream had yielded nothing. After content the error propagates (requirements M4).
 */
export async function* streamWithOverflowRetry<E>(open: () => AsyncIterable<E>, compact: (error: ProviderError) => Promise<boolean>): AsyncGenerator<E> {
  let yielded = false;
  try {
    for await (const event of open()) {
      yielded = true;
      yield event;
    }
    return;
  } catch (err) {
    if (yielded || !isRetryableOverflow(err)) throw err;
    if (!(await compact(err))) throw err;
  }
  yield* open();
}

export function isRetryableOverflow(err: unknown): err is ProviderError {
  return err instanceof ProviderError && err.kind === 'context_overflow' && !err.details.afterContent;
}
