import type { EventOf, SessionEvent, Usage } from '@tandem/shared';

/** How a followed turn ended. `disconnected`: the server went away before it did. */
export type TurnEnd = 'answered' | 'error' | 'max_iterations' | 'permission_timeout' | 'loop_stopped' | 'cancelled' | 'interrupted' | 'disconnected';

/** A tool call a permission decision stopped: a person's or the timeout's deny, or a stored deny rule. */
export interface PermissionDenial {
  callId: string;
  tool: string;
  args: unknown;
  decision: string;
  by: string;
  /** `answered` (a person), `timeout` (nobody answered in time), `rule` (a stored or session deny). */
  reason: 'answered' | 'timeout' | 'rule';
}

export interface TurnOutcome {
  /** The turn the message started or steered (absent when it started none, e.g. `@commander` alone). */
  turnId: string | undefined;
  end: TurnEnd;
  /** The turn's last reply text (its final answer when it ended answered). */
  answer: string;
  iterations: number;
  usage: Usage;
  error?: { code: string; message: string };
  denials: PermissionDenial[];
}

interface Asked {
  callId: string;
  tool: string;
  args: unknown;
}

/**
 * Folds the session events that follow one `session:send` into the outcome of the turn it
 * started or steered. Pure: fed events in order, it says when the turn is over.
 *
 * A steering message the running turn did not fold in starts the next turn (the server's rule);
 * that turn is then the one followed, so the outcome is always the turn that answered the message.
 */
export class TurnTracker {
  private turnId: string | undefined;
  private steering = false;
  /** A steered message was folded into the turn (its `user_message` with mode `steer` came). */
  private folded = false;
  /** The steered turn ended without folding our message in: the next turn the server starts is ours. */
  private awaitingLeftover = false;
  private answer = '';
  private iterations = 0;
  private usage: Usage = { inputTokens: 0, outputTokens: 0 };
  private error: { code: string; message: string } | undefined;
  private readonly asked = new Map<string, Asked>();
  /** The arguments of this turn's tool calls, by call id (for a denial by rule). */
  private readonly callArgs = new Map<string, unknown>();
  private readonly denials: PermissionDenial[] = [];
  private outcome: TurnOutcome | undefined;

  constructor(
    /** The client name the server records as `by` for our messages. */
    private readonly by: string,
    /** The message sent, to recognise it when it is folded in or starts a later turn. */
    private readonly text: string,
  ) {}

  /** What `session:send` answered. */
  started(mode: 'turn' | 'steer', turnId: string | undefined): void {
    this.turnId = turnId;
    this.steering = mode === 'steer';
    if (turnId === undefined) this.finish('answered');
  }

  get done(): TurnOutcome | undefined {
    return this.outcome;
  }

  get currentTurnId(): string | undefined {
    return this.turnId;
  }

  /** Ends the outcome from outside the event stream (the connection is gone). */
  abandon(end: TurnEnd, error?: { code: string; message: string }): TurnOutcome {
    if (error) this.error = error;
    return this.finish(end);
  }

  feed(event: SessionEvent): TurnOutcome | undefined {
    if (this.outcome) return this.outcome;
    if (this.awaitingLeftover) {
      if (event.type === 'user_message' && event.mode === 'turn' && event.by.includes(this.by) && event.text.includes(this.text)) this.awaitingLeftover = false;
      return undefined;
    }
    if (this.turnId === undefined) {
      // Between a leftover message and its turn's start.
      if (event.type === 'turn_started') this.turnId = event.turnId;
      return undefined;
    }
    switch (event.type) {
      case 'user_message':
        if (event.mode === 'steer' && event.by === this.by && event.text === this.text) this.folded = true;
        return undefined;
      case 'assistant_text':
        if (event.turnId === this.turnId && !event.taskId) this.answer = event.text;
        return undefined;
      case 'usage':
        if (event.turnId === this.turnId && !event.taskId) this.usage = usageOf(event);
        return undefined;
      case 'agent_error':
        if (event.turnId === this.turnId) this.error = { code: event.code, message: event.message };
        return undefined;
      case 'tool_call':
        if (event.turnId === this.turnId) this.callArgs.set(event.callId, event.args);
        return undefined;
      case 'permission_request':
        this.asked.set(event.requestId, { callId: event.callId, tool: event.tool, args: event.args });
        return undefined;
      case 'permission_resolved':
        this.resolved(event);
        return undefined;
      case 'tool_result':
        if (event.turnId === this.turnId && event.outcome === 'denied' && !this.denials.some((d) => d.callId === event.callId)) {
          const args = this.callArgs.get(event.callId);
          this.denials.push({ callId: event.callId, tool: event.tool, args, decision: 'deny', by: 'rule', reason: 'rule' });
        }
        return undefined;
      case 'turn_done':
        if (event.turnId !== this.turnId) return undefined;
        this.iterations = event.iterations;
        if (event.usage) this.usage = usageOf(event.usage);
        if (this.steering && !this.folded) {
          // Our message came too late for this turn: the server starts the next one with it.
          this.turnId = undefined;
          this.steering = false;
          this.awaitingLeftover = true;
          this.answer = '';
          return undefined;
        }
        return this.finish(event.outcome ?? 'answered');
      case 'turn_cancelled':
        return event.turnId === this.turnId ? this.finish('cancelled') : undefined;
      case 'turn_interrupted':
        return event.turnId === this.turnId ? this.finish('interrupted') : undefined;
      default:
        return undefined;
    }
  }

  private resolved(event: EventOf<'permission_resolved'>): void {
    const asked = this.asked.get(event.requestId);
    if (!asked || !event.decision.startsWith('deny')) return;
    // `expired`: the turn was cancelled or the session closed while it waited; that is not a denial.
    if (event.reason === 'expired') return;
    this.denials.push({
      callId: asked.callId,
      tool: asked.tool,
      args: asked.args,
      decision: event.decision,
      by: event.by,
      reason: event.reason === 'timeout' ? 'timeout' : 'answered',
    });
  }

  private finish(end: TurnEnd): TurnOutcome {
    this.outcome ??= {
      turnId: this.turnId,
      end,
      answer: this.answer,
      iterations: this.iterations,
      usage: this.usage,
      ...(this.error ? { error: this.error } : {}),
      denials: this.denials,
    };
    return this.outcome;
  }
}

/**
 * The usage a run reports: tokens in and out, and, when the server knows them, the prompt tokens
 * read from and written to the provider's cache and the cost in US dollars (absent, never 0, when
 * the model has no price).
 */
function usageOf(source: Usage): Usage {
  return {
    inputTokens: source.inputTokens,
    outputTokens: source.outputTokens,
    ...(source.cacheReadTokens !== undefined ? { cacheReadTokens: source.cacheReadTokens } : {}),
    ...(source.cacheWriteTokens !== undefined ? { cacheWriteTokens: source.cacheWriteTokens } : {}),
    ...(source.costUsd !== undefined ? { costUsd: source.costUsd } : {}),
  };
}
