import { endsTurn, type SessionEvent } from '@tandem/shared';
import type { Logger } from 'pino';
import type { Clock, Message } from '@tandem/ai';
import type { EngineEvent, TurnLimits } from '@tandem/core';
import type { AgentSlices } from '../agents/agent-slices.js';
import type { SessionAgents } from '../agents/session-agents.js';
import { ConflictError } from '../errors/domain-errors.js';
import { SessionTurn } from './session-turn.js';
import { SHUTDOWN_REASON } from './shutdown-reason.js';
import type { SessionRunner } from './session-environment.js';
import type { TurnPlanner } from './turn-planner.js';

/** A turn to start: for `agent`, with `text` from `by` (and its own limits, if any). */
interface NextTurn {
  agent: string;
  text: string;
  by: string;
  limits?: Partial<TurnLimits> | undefined;
}

/** What a session's turns are owned with, given once when the session is built. */
export interface SessionTurnsParts {
  sessionId: string;
  /** Builds each turn's options and runs it. */
  planner: TurnPlanner;
  /** Routes messages by the floor and `@NAME`, says which turn follows an ended one. */
  agents: SessionAgents;
  /** Each agent's conversation as the log describes it now. */
  conversation: AgentSlices;
  /** What the turns' commands run on: on shutdown their commands are killed after the grace time. */
  runner: Pick<SessionRunner, 'killAll'>;
  /** Stamps an event into the session's pipeline. */
  emit(body: EngineEvent | { type: 'user_message'; text: string; by: string; mode: 'turn'; agent: string }): void;
  clock: Clock;
  logger: Logger;
}

/**
 * The one owner of a session's turns. It starts a turn for a driver's message when idle, feeds
 * the running one (steering, requirements A9), ends it on its terminal event (`endsTurn`, seen
 * as a `stamped` subscriber of the pipeline), starts the next one from steering that came too
 * late or from a hand-off or hand-back, and stops it on cancel or shutdown. Whatever happens
 * inside the engine, a turn ends with exactly one terminal event in the log. Maintenance on the
 * conversation (`exclusive`) runs only while no turn does.
 */
export class SessionTurns {
  private turn: SessionTurn | undefined;
  private stopped = false;
  /** What maintenance (compaction, `/new`) runs now, if any; no turn may start meanwhile. */
  private busy: string | undefined;
  private readonly closing = new AbortController();

  constructor(private readonly parts: SessionTurnsParts) {}

  get running(): boolean {
    return this.turn !== undefined;
  }

  /** The running turn's id and agent, if a turn runs (right after `send`: the turn it started or steers). */
  get current(): { turnId: string; agent: string } | undefined {
    return this.turn ? { turnId: this.turn.turnId, agent: this.turn.agent } : undefined;
  }

  /** What maintenance runs now (`/new`, compaction, clearing), if any. */
  get busyWith(): string | undefined {
    return this.busy;
  }

  /**
   * A driver's message: steers the running turn, or starts a turn for the agent it is for (the
   * floor holder, or `@NAME`; `@commander` alone only takes the floor back). `limits` apply to
   * the turn it starts (a headless run's `--max-iterations`), not to a turn it steers.
   */
  send(text: string, by: string, limits: Partial<TurnLimits> = {}): 'turn' | 'steer' {
    if (this.stopped) throw new ConflictError(`session ${this.parts.sessionId} is shutting down`);
    if (this.busy) throw new ConflictError(`the session is busy (${this.busy}); send your message again when that finishes`);
    if (this.turn) {
      this.turn.steer({ text, by });
      return 'steer';
    }
    const route = this.parts.agents.route(text, by);
    if ('floorOnly' in route) return 'turn';
    this.start({ ...route, limits });
    return 'turn';
  }

  /** The one stop path: the running turn, every agent and worker it started, their commands. */
  cancel(): boolean {
    this.parts.agents.cancelled();
    if (!this.turn) return false;
    this.turn.cancel();
    return true;
  }

  /**
   * Runs maintenance on the conversation (`session:compact`, `session:new`) while no turn runs.
   * Refused (a conflict) during a turn or other maintenance; messages sent meanwhile are
   * refused too, so the conversation cannot change under it. `fn`'s signal aborts when the
   * session starts closing.
   */
  async exclusive<T>(what: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.stopped) throw new ConflictError(`session ${this.parts.sessionId} is shutting down`);
    if (this.turn) throw new ConflictError(`cannot ${what} while a turn is running; wait for it to end or cancel it first`);
    if (this.busy) throw new ConflictError(`cannot ${what} now: the session is busy (${this.busy}); try again when that finishes`);
    this.busy = what;
    try {
      return await fn(this.closing.signal);
    } finally {
      this.busy = undefined;
    }
  }

  /** The session is idle again as soon as the turn's terminal event is out. */
  readonly observe = (event: SessionEvent): void => {
    const turn = this.turn;
    if (turn && endsTurn(event) && event.turnId === turn.turnId) this.end(turn);
  };

  /**
   * Shutdown: no turn starts any more; the running turn is interrupted and gets `graceMs` to
   * stop; then its commands are killed, and a turn still going is closed as interrupted
   * whatever its engine does later.
   */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    this.closing.abort(new Error('the server is shutting down'));
    const turn = this.turn;
    if (turn) {
      turn.interrupt();
      await Promise.race([turn.done, this.parts.clock.sleep(graceMs).catch(() => undefined)]);
    }
    await this.parts.runner.killAll?.();
    if (turn) {
      await Promise.race([turn.done, this.parts.clock.sleep(1000).catch(() => undefined)]);
      // Ends the turn now as interrupted if the engine has not; later engine events are ignored.
      turn.stopping = 'shutdown';
      if (turn.started) this.finish(turn);
      turn.ended = true;
    }
  }

  private start({ text, by, agent, limits }: NextTurn): void {
    // The loop appends the user's message itself: it gets the conversation as it was before it.
    const before = this.parts.conversation.messagesOf(agent);
    this.parts.emit({ type: 'user_message', text, by, mode: 'turn', agent });
    const turn = new SessionTurn(agent, limits);
    this.turn = turn;
    turn.done = this.pump(turn, text, by, before);
    // Normally the terminal event ends the turn (observe); this covers a turn that failed before it started.
    void turn.done.catch((err: unknown) => this.parts.logger.error({ err }, 'turn pump failed')).then(() => this.end(turn));
  }

  /** Builds the turn's options, runs it, and records its events until its terminal one. */
  private async pump(turn: SessionTurn, text: string, by: string, conversation: Message[]): Promise<void> {
    const { planner, agents, logger } = this.parts;
    try {
      const options = await planner.options(
        {
          turnId: turn.turnId,
          text,
          by,
          signal: turn.signal,
          takeSteering: () => turn.takeSteering(),
          conversation,
          profile: agents.profileOf(turn.agent),
          ...(turn.limits ? { limits: turn.limits } : {}),
        },
        agents,
      );
      for await (const event of planner.run(options)) {
        if (turn.ended) continue;
        this.record(turn, event);
      }
    } catch (err) {
      if (!turn.ended) {
        const message = err instanceof Error ? err.message : String(err);
        logger.warn({ err, turnId: turn.turnId }, 'turn failed');
        if (turn.stopping) this.finish(turn);
        else {
          this.emit(turn, { type: 'agent_error', code: 'internal', message: `the turn stopped: ${message}`, turnId: turn.turnId });
          if (turn.started) this.emit(turn, { type: 'turn_done', turnId: turn.turnId, iterations: 0, outcome: 'error' });
          turn.ended = true;
        }
      }
    } finally {
      if (!turn.ended && turn.started) this.finish(turn);
      turn.ended = true;
    }
  }

  private record(turn: SessionTurn, event: EngineEvent): void {
    if (event.type === 'turn_started') turn.started = true;
    else if (event.type === 'assistant_text') turn.answer = event.text;
    else if (event.type === 'turn_done') turn.answered = event.outcome === undefined || event.outcome === 'answered';
    if (turn.stopping === 'shutdown' && event.type === 'turn_cancelled') {
      this.finish(turn);
      return;
    }
    this.emit(turn, event);
    if (endsTurn(event)) turn.ended = true;
  }

  /** The engine stopped without a terminal event of its own. */
  private finish(turn: SessionTurn): void {
    if (turn.ended) return;
    turn.ended = true;
    const { turnId } = turn;
    if (turn.stopping === 'cancel') {
      this.emit(turn, { type: 'turn_cancelled', turnId, note: 'cancelled by a driver' });
    } else if (turn.stopping === 'shutdown') {
      this.emit(turn, { type: 'turn_interrupted', turnId, reason: SHUTDOWN_REASON });
    } else {
      this.emit(turn, { type: 'agent_error', code: 'internal', message: 'the engine ended the turn without a final event', turnId });
      this.emit(turn, { type: 'turn_done', turnId, iterations: 0, outcome: 'error' });
    }
  }

  /** Every event of the turn says whose turn it is (a worker's events carry their own agent). */
  private emit(turn: SessionTurn, event: EngineEvent): void {
    this.parts.emit(event.agent ? event : { ...event, agent: turn.agent });
  }

  /** Steering that arrived too late to be folded in starts a new turn; otherwise a hand-off or hand-back may. */
  private end(turn: SessionTurn): void {
    if (this.turn !== turn) return;
    this.turn = undefined;
    if (this.stopped) return;
    const left = turn.takeSteering();
    if (left.length > 0) {
      this.start({ text: left.map((m) => m.text).join('\n\n'), by: left.map((m) => m.by).join(', '), agent: turn.agent });
      return;
    }
    const next = this.parts.agents.afterTurn({ agent: turn.agent, answer: turn.answer, answered: turn.answered });
    if (next) this.start(next);
  }
}
