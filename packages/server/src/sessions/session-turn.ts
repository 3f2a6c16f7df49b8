import { randomUUID } from 'node:crypto';
import type { SteeringMessage, TurnLimits } from '@tandem/core';
import { SHUTDOWN_REASON } from './shutdown-reason.js';

/**
 * One running turn's state, held by its owner (`SessionTurns`): whose turn it is, its steering
 * queue (requirements A9), its abort switch, why it is stopping, and what its events said so far.
 */
export class SessionTurn {
  readonly turnId = randomUUID();
  /** Settles when the turn's pump is done (set by the owner when it starts the pump). */
  done: Promise<void> = Promise.resolve();
  /** The turn's last assistant text (its answer once it ended answered). */
  answer = '';
  /** Whether it ended with a final answer. */
  answered = false;
  /** Whether the engine said `turn_started` (a turn that never started ends without a terminal event). */
  started = false;
  /** Whether its terminal event is out; later engine events are ignored. */
  ended = false;
  stopping: 'cancel' | 'shutdown' | undefined;
  private readonly abort = new AbortController();
  private steering: SteeringMessage[] = [];

  constructor(
    readonly agent: string,
    readonly limits?: Partial<TurnLimits>,
  ) {}

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  steer(message: SteeringMessage): void {
    this.steering.push(message);
  }

  /** Steering not yet folded in (the loop takes it between iterations; what is left starts the next turn). */
  takeSteering(): SteeringMessage[] {
    const left = this.steering;
    this.steering = [];
    return left;
  }

  cancel(): void {
    this.stopping ??= 'cancel';
    this.steering = [];
    this.abort.abort(new Error('cancelled by a driver'));
  }

  /** The server is shutting down: stop, and record the turn as interrupted, not cancelled. */
  interrupt(): void {
    this.stopping = 'shutdown';
    this.steering = [];
    this.abort.abort(new Error(SHUTDOWN_REASON));
  }
}
