import { TURN_END_TYPES } from '@tandem/shared';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { EngineEvent, SteeringMessage, TurnLimits, TurnOptions } from '@tandem/core';
import { SHUTDOWN_REASON } from './shutdown-reason.js';

/** What a turn asks of its session to build the engine's options. */
export interface TurnRequest {
  turnId: string;
  /** The agent the turn is for (`commander`, or the agent holding the floor or addressed). */
  agent: string;
  text: string;
  by: string;
  signal: AbortSignal;
  takeSteering: () => SteeringMessage[];
  /** This turn's own limits over the session's, if any. */
  limits?: Partial<TurnLimits> | undefined;
}

/** What a running turn needs from its session. */
export interface TurnHost {
  emit(event: EngineEvent): void;
  /** Everything of TurnOptions the session supplies; may throw (e.g. an unknown model). */
  turnOptions(turn: TurnRequest): Promise<TurnOptions>;
  runTurn(options: TurnOptions): AsyncIterable<EngineEvent>;
  logger: Logger;
}

/**
 * One running turn: pumps the engine's events into the session, holds the steering queue
 * (requirements A9) and the abort switch. Whatever happens inside the engine, the turn ends with
 * exactly one terminal event in the log.
 */
export class SessionTurn {
  readonly turnId = randomUUID();
  readonly done: Promise<void>;
  /** The turn's last assistant text (its answer once it ended answered). */
  answer = '';
  /** Whether it ended with a final answer. */
  answered = false;
  private readonly abort = new AbortController();
  private steering: SteeringMessage[] = [];
  private stopping: 'cancel' | 'shutdown' | undefined;
  private started = false;
  private ended = false;

  constructor(
    private readonly host: TurnHost,
    text: string,
    by: string,
    readonly agent: string,
    private readonly limits?: Partial<TurnLimits>,
  ) {
    this.done = this.pump(text, by);
  }

  steer(message: SteeringMessage): void {
    this.steering.push(message);
  }

  /** Steering that arrived too late to be folded in; the session starts a new turn with it. */
  leftoverSteering(): SteeringMessage[] {
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

  /** Ends the turn now as interrupted if the engine has not ended it; later engine events are ignored. */
  abandon(): void {
    this.stopping = 'shutdown';
    if (this.started) this.finish();
    this.ended = true;
  }

  private async pump(text: string, by: string): Promise<void> {
    try {
      const options = await this.host.turnOptions({
        turnId: this.turnId,
        agent: this.agent,
        text,
        by,
        signal: this.abort.signal,
        takeSteering: () => this.leftoverSteering(),
        ...(this.limits ? { limits: this.limits } : {}),
      });
      for await (const event of this.host.runTurn(options)) {
        if (this.ended) continue;
        this.record(event);
      }
    } catch (err) {
      if (!this.ended) {
        const message = err instanceof Error ? err.message : String(err);
        this.host.logger.warn({ err, turnId: this.turnId }, 'turn failed');
        if (this.stopping) this.finish();
        else {
          this.host.emit({ type: 'agent_error', code: 'internal', message: `the turn stopped: ${message}`, turnId: this.turnId });
          if (this.started) this.host.emit({ type: 'turn_done', turnId: this.turnId, iterations: 0, outcome: 'error' });
          this.ended = true;
        }
      }
    } finally {
      if (!this.ended && this.started) this.finish();
      this.ended = true;
    }
  }

  private record(event: EngineEvent): void {
    if (event.type === 'turn_started') this.started = true;
    else if (event.type === 'assistant_text') this.answer = event.text;
    else if (event.type === 'turn_done') this.answered = event.outcome === undefined || event.outcome === 'answered';
    if (this.stopping === 'shutdown' && event.type === 'turn_cancelled') {
      this.finish();
      return;
    }
    this.host.emit(event);
    if (TURN_END_TYPES.has(event.type)) this.ended = true;
  }

  /** The engine stopped without a terminal event of its own. */
  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.stopping === 'cancel') {
      this.host.emit({ type: 'turn_cancelled', turnId: this.turnId, note: 'cancelled by a driver' });
    } else if (this.stopping === 'shutdown') {
      this.host.emit({ type: 'turn_interrupted', turnId: this.turnId, reason: SHUTDOWN_REASON });
    } else {
      this.host.emit({ type: 'agent_error', code: 'internal', message: 'the engine ended the turn without a final event', turnId: this.turnId });
      this.host.emit({ type: 'turn_done', turnId: this.turnId, iterations: 0, outcome: 'error' });
    }
  }
}
