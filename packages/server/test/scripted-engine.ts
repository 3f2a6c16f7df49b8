import type { EngineEvent, SteeringMessage, TurnOptions } from '@tandem/core';

/**
 * A loop whose steps the test controls: it streams `deltas`, then waits for `release()`
 * (or the abort signal), then folds in steering and finishes. It stands in for core's loop
 * where a test is about the server's mechanics, not the engine.
 */
export class ScriptedLoop {
  readonly calls: TurnOptions[] = [];
  readonly steered: SteeringMessage[] = [];
  private releaseCurrent: (() => void) | undefined;
  private started: Array<() => void> = [];

  constructor(private readonly deltas: string[] = ['Hel', 'lo ', 'there']) {}

  /** Resolves once the running turn has streamed its deltas and waits. */
  waitingForRelease(): Promise<void> {
    if (this.releaseCurrent) return Promise.resolve();
    return new Promise((resolve) => this.started.push(resolve));
  }

  release(): void {
    const release = this.releaseCurrent;
    this.releaseCurrent = undefined;
    release?.();
  }

  runTurn = (opts: TurnOptions): AsyncIterable<EngineEvent> => {
    this.calls.push(opts);
    const self = this;
    return (async function* () {
      yield { type: 'turn_started', turnId: opts.turnId, model: opts.model.id };
      yield { type: 'thinking', turnId: opts.turnId };
      for (const delta of self.deltas) yield { type: 'text_delta', turnId: opts.turnId, delta };
      const released = new Promise<void>((resolve) => {
        self.releaseCurrent = resolve;
        opts.control.signal.addEventListener(
          'abort',
          () => {
            if (self.releaseCurrent === resolve) self.releaseCurrent = undefined;
            resolve();
          },
          { once: true },
        );
      });
      for (const notify of self.started.splice(0)) notify();
      await released;
      if (opts.control.signal.aborted) {
        yield { type: 'turn_cancelled', turnId: opts.turnId, note: 'cancelled' };
        return;
      }
      for (const message of opts.control.takeSteering?.() ?? []) {
        self.steered.push(message);
        yield { type: 'user_message', text: message.text, by: message.by, mode: 'steer' };
      }
      yield { type: 'assistant_text', turnId: opts.turnId, iteration: 1, text: self.deltas.join('') };
      yield { type: 'turn_done', turnId: opts.turnId, iterations: 1, outcome: 'answered' };
    })();
  };
}

/** A model client that is never called (the scripted loop does not ask a model). */
export const idleModelFactory = (spec: string) => ({
  id: spec,
  stream: () => {
    throw new Error('the scripted loop does not call the model');
  },
});
