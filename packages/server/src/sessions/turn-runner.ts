import { TURN_END_TYPES } from '@tandem/shared';
import type { Logger } from 'pino';
import type { SessionEvent } from '@tandem/shared';
import type { Clock, Message } from '@tandem/ai';
import type { EngineEvent, SteeringMessage, TurnLimits, TurnOptions } from '@tandem/core';
import { SessionTurn, type TurnRequest } from './session-turn.js';

/** A turn to start: for `agent`, with `text` from `by` (and its own limits, if any). */
export interface NextTurn {
  agent: string;
  text: string;
  by: string;
  limits?: Partial<TurnLimits> | undefined;
}

/** What the turn runner needs from its session. */
export interface TurnRunnerHost {
  emit(body: EngineEvent | { type: 'user_message'; text: string; by: string; mode: 'turn'; agent: string }): void;
  /** An agent's conversation as the log describes it now. */
  conversation(agent: string): Message[];
  /** The engine's options for one turn (may throw: an unknown model, a broken config). */
  turnOptions(request: TurnRequest, conversation: Message[]): Promise<TurnOptions>;
  /** The turn that follows an ended one, if any (a hand-off, a hand-back). */
  afterTurn?(ended: { agent: string; answer: string; answered: boolean }): NextTurn | undefined;
  runTurn(options: TurnOptions): AsyncIterable<EngineEvent>;
  clock: Clock;
  logger: Logger;
}

/**
 * Owns a session's turns: starts one for a message when idle, steers the running one
 * (requirements A9), ends it on its terminal event, starts the next one from steering that came
 * too late, and stops it on cancel or shutdown. A `stamped` subscriber of the event pipeline.
 */
export class TurnRunner {
  private turn: SessionTurn | undefined;
  private stopped = false;

  constructor(private readonly host: TurnRunnerHost) {}

  get running(): boolean {
    return this.turn !== undefined;
  }

  /** The running turn's id and agent, if a turn runs. */
  get current(): { turnId: string; agent: string } | undefined {
    return this.turn ? { turnId: this.turn.turnId, agent: this.turn.agent } : undefined;
  }

  /** A message: starts a turn for `agent` when idle (with `limits`), otherwise steers the running one. */
  send(text: string, by: string, agent: string, limits?: Partial<TurnLimits>): 'turn' | 'steer' {
    if (this.turn) {
      this.turn.steer({ text, by });
      return 'steer';
    }
    this.start({ text, by, agent, limits });
    return 'turn';
  }

  cancel(): boolean {
    if (!this.turn) return false;
    this.turn.cancel();
    return true;
  }

  /** The session is idle again as soon as the turn's terminal event is out. */
  readonly observe = (event: SessionEvent): void => {
    const turn = this.turn;
    if (turn && TURN_END_TYPES.has(event.type) && (event as { turnId?: string }).turnId === turn.turnId) this.end(turn);
  };

  /**
   * Shutdown: the running turn is interrupted and gets `graceMs` to stop; then `kill` (its
   * commands) runs, and a turn still going is closed as interrupted whatever its engine does later.
   */
  async stop(graceMs: number, kill: () => Promise<void>): Promise<void> {
    this.stopped = true;
    const turn = this.turn;
    if (turn) {
      turn.interrupt();
      await Promise.race([turn.done, this.host.clock.sleep(graceMs).catch(() => undefined)]);
    }
    await kill();
    if (turn) {
      await Promise.race([turn.done, this.host.clock.sleep(1000).catch(() => undefined)]);
      turn.abandon();
    }
  }

  private start({ text, by, agent, limits }: NextTurn): void {
    // The loop appends the user's message itself: it gets the conversation as it was before it.
    const before = this.host.conversation(agent);
    this.host.emit({ type: 'user_message', text, by, mode: 'turn', agent });
    const turn = new SessionTurn(
      {
        // Every event of the turn says whose turn it is (a worker's events carry their own agent).
        emit: (event) => this.host.emit(event.agent ? event : { ...event, agent }),
        turnOptions: (request) => this.host.turnOptions(request, before),
        runTurn: (options) => this.host.runTurn(options),
        logger: this.host.logger,
      },
      text,
      by,
      agent,
      limits,
    );
    this.turn = turn;
    // Normally the terminal event ends the turn (observe); this covers a turn that failed before it started.
    void turn.done.catch((err: unknown) => this.host.logger.error({ err }, 'turn pump failed')).then(() => this.end(turn));
  }

  /** Steering that arrived too late to be folded in starts a new turn; otherwise a hand-off or hand-back may. */
  private end(turn: SessionTurn): void {
    if (this.turn !== turn) return;
    this.turn = undefined;
    if (this.stopped) return;
    const left = turn.leftoverSteering();
    if (left.length > 0) {
      this.start({ text: left.map((m: SteeringMessage) => m.text).join('\n\n'), by: left.map((m) => m.by).join(', '), agent: turn.agent });
      return;
    }
    const next = this.host.afterTurn?.({ agent: turn.agent, answer: turn.answer, answered: turn.answered });
    if (next) this.start(next);
  }
}
