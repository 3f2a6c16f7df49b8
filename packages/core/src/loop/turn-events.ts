import { AsyncQueue } from './async-queue.js';
import type { EngineEvent, TurnOptions } from './types.js';

/** How a turn's driver talks to the consumer: push events, and wait until it has handled them. */
export interface TurnIo {
  emit(event: EngineEvent): void;
  settled(): Promise<void>;
}

/**
 * The events of one turn as the consumer iterates them: `drive` runs the turn, pushing its
 * events, under a signal that aborts when the turn is cancelled (`opts.control`) or the
 * consumer stops iterating early (`return()`); an error of `drive` is thrown to the consumer.
 */
export async function* turnEvents(opts: TurnOptions, drive: (signal: AbortSignal, io: TurnIo) => Promise<void>): AsyncGenerator<EngineEvent> {
  const queue = new AsyncQueue<EngineEvent>();
  const abandoned = new AbortController();
  const signal = AbortSignal.any([opts.control.signal, abandoned.signal]);
  const io: TurnIo = { emit: (e) => queue.push(e), settled: () => queue.drained() };
  drive(signal, io).then(
    () => queue.end(),
    (err: unknown) => queue.fail(err),
  );
  try {
    yield* queue;
  } finally {
    abandoned.abort(new Error('the turn was abandoned by its consumer'));
  }
}
