import type { Logger } from 'pino';
import { EPHEMERAL_EVENT_TYPES, type EventBody, type SessionEvent, TURN_END_TYPES } from '@tandem/shared';
import type { Clock } from '@tandem/ai';
import type { EngineEvent } from '@tandem/core';
import type { SessionLog } from './session-log.js';

/** Told about each event: `stamped` ones in the order seqs are given, `visible` ones once written. */
export type EventSubscriber = (event: SessionEvent) => void;

/** Every subscriber of a session's pipeline, each list in the order its subscribers are told (see `sessionSubscribers`). */
export interface EventSubscribers {
  /** Persisted events in stamped order, synchronously inside `emit`: the folds the session's state relies on. */
  stamped: EventSubscriber[];
  /** Events once they are written (ephemeral ones right behind their predecessor): what others see. */
  visible: EventSubscriber[];
}

export interface EventPipelineParts {
  sessionId: string;
  log: SessionLog;
  clock: Clock;
  logger: Logger;
  /** The seq of the last event already in the log (0 for a new session). */
  lastSeq: number;
}

/**
 * A session's one way for events: stamp (seq, time) → append to the log → fold (the `stamped`
 * subscribers: conversation, pending calls, the turn's end) → once the line is written, notify
 * the `visible` subscribers (partial reply, audit, broadcast). The folds follow the stamped order
 * at once — the log's order — so the turn never waits on the disk; what others see follows the
 * written order (durable before visible). One subscriber failing never stops the others.
 */
export class EventPipeline {
  private lastSeq: number;
  private closed = false;
  private subscribers: EventSubscribers | undefined;

  constructor(private readonly parts: EventPipelineParts) {
    this.lastSeq = parts.lastSeq;
    parts.log.onVisible((event) => this.notify(event));
  }

  /**
   * Registers every subscriber at once, before the first event: a fold that missed an event
   * would no longer match the log, so an event emitted earlier is a bug and throws.
   */
  subscribe(subscribers: EventSubscribers): void {
    if (this.subscribers) throw new Error(`session ${this.parts.sessionId}: the event pipeline's subscribers are registered already`);
    this.subscribers = subscribers;
  }

  /**
   * Stamps one event and queues it in the log. An ephemeral event (a `text_delta`) carries the
   * seq of the persisted event before it and is seen right behind that one, never before it.
   * After `close` persisted events are dropped (only an engine that ignored the shutdown emits then).
   */
  emit(body: EventBody | EngineEvent): SessionEvent {
    const { sessionId, log, clock, logger } = this.parts;
    const { subscribers } = this;
    if (!subscribers) throw new Error(`session ${sessionId}: a ${body.type} event before the event pipeline's subscribers were registered`);
    const ts = new Date(clock.now()).toISOString();
    if (EPHEMERAL_EVENT_TYPES.has(body.type)) {
      const event = { sessionId, seq: this.lastSeq, ts, ephemeral: true, ...body } as SessionEvent;
      log.send(event);
      return event;
    }
    const event = { sessionId, seq: this.lastSeq + 1, ts, ...body } as SessionEvent;
    if (this.closed) {
      logger.warn({ sessionId, type: body.type }, 'event after the session closed; dropped');
      return event;
    }
    this.lastSeq = event.seq;
    // A turn's end is worth an fdatasync (after the batch is written; it holds nothing back).
    log.append(event, TURN_END_TYPES.has(event.type));
    for (const subscriber of subscribers.stamped) this.safely(subscriber, event);
    return event;
  }

  /** Resolves once every event emitted so far is written and seen. */
  flushed(): Promise<void> {
    return this.parts.log.flush();
  }

  /** No event is accepted after this; the log is flushed and closed. */
  async close(): Promise<void> {
    this.closed = true;
    await this.parts.log.close();
  }

  private notify(event: SessionEvent): void {
    for (const subscriber of this.subscribers?.visible ?? []) this.safely(subscriber, event);
  }

  private safely(subscriber: EventSubscriber, event: SessionEvent): void {
    try {
      subscriber(event);
    } catch (err) {
      this.parts.logger.error({ err, sessionId: this.parts.sessionId, seq: event.seq, type: event.type }, 'an event subscriber failed');
    }
  }
}
