import type { EventOf, SessionEvent } from '@tandem/shared';
import type { AssistantMessage, Message } from '@tandem/ai';
import { applyCompaction, startAfterCompaction } from '../context/run-compaction.js';
import { INTERRUPTED_OUTPUT } from '../loop/turn-end.js';
import type { EngineEvent } from '../base/engine-event.js';
import { type ConversationSnapshot, checkConversationSnapshot } from './conversation-snapshot.js';

/** A persisted session event or an engine event before stamping; only `type` and its fields matter. */
export type ConversationEvent = SessionEvent | EngineEvent;

type Of<T extends SessionEvent['type']> = Omit<EventOf<T>, 'sessionId' | 'seq' | 'ts' | 'ephemeral'>;

interface OpenCall {
  callId: string;
  turnId: string;
  tool: string;
}

/**
 * Rebuilds the engine's conversation from the session's events, producing exactly what the
 * loop's live conversation held: user messages (turn or steer), one assistant message per
 * (turn, iteration), one tool message per result; a cancelled turn leaves nothing behind; a
 * turn the server lost mid-way gets error results for calls that never finished; a `compaction`
 * replaces the folded prefix with its summary, as the loop did.
 * Each event costs O(1), so the server can keep a builder per session and fold events in live.
 */
export class ConversationBuilder {
  private list: Message[] = [];
  private pendingTurnStart: number | undefined;
  private readonly turnStarts = new Map<string, number>();
  private current: { key: string; message: AssistantMessage } | undefined;
  private readonly openCalls = new Map<string, OpenCall>();
  /** Where each of the last finished turns began, so an `undo` can cut the conversation there. Bounded. */
  private readonly doneTurns = new Map<string, number>();

  apply(event: ConversationEvent): void {
    switch (event.type) {
      case 'user_message':
        return this.userMessage(event);
      case 'turn_started':
        this.turnStarts.set(event.turnId, this.pendingTurnStart ?? this.list.length);
        this.pendingTurnStart = undefined;
        this.current = undefined;
        return;
      case 'assistant_text':
        this.assistant(event.turnId, event.iteration).text = event.text;
        return;
      case 'tool_call':
        return this.toolCall(event);
      case 'tool_result':
        this.openCalls.delete(event.callId);
        this.list.push({
          role: 'tool',
          callId: event.callId,
          name: event.tool,
          output: event.output,
          isError: event.isError,
          // The log keeps each image's type, size and stored copy; the host loads the bytes before a request.
          ...(event.images?.length ? { images: event.images.map((i) => ({ ...i })) } : {}),
        });
        return;
      case 'turn_done':
        this.current = undefined;
        this.rememberDone(event.turnId);
        this.forgetTurn(event.turnId);
        return;
      case 'undo':
        return this.undone(event.turnIds ?? []);
      case 'turn_cancelled':
        return this.cancelled(event.turnId);
      case 'turn_interrupted':
        return this.interrupted(event.turnId);
      case 'conversation_cleared':
        this.list = [];
        this.current = undefined;
        this.pendingTurnStart = undefined;
        this.turnStarts.clear();
        this.openCalls.clear();
        this.doneTurns.clear();
        return;
      case 'compaction':
        return this.compacted(event);
      default:
        return;
    }
  }

  /**
   * The builder's state as JSON-safe data that later events do not change, so it may be
   * serialised later, piece by piece: a copy of the list (O(messages) pointers; a message never
   * changes once another is being filled) with the one being filled copied. For a snapshot beside
   * the log, not per event; `restore` of its JSON round trip folds every later event as this would.
   */
  snapshot(): ConversationSnapshot {
    const list = this.list.slice();
    const index = this.current ? list.lastIndexOf(this.current.message) : -1;
    if (index >= 0) {
      const open = list[index] as AssistantMessage;
      list[index] = { ...open, toolCalls: open.toolCalls.map((call) => ({ ...call })) };
    }
    return {
      list,
      pendingTurnStart: this.pendingTurnStart ?? null,
      turnStarts: [...this.turnStarts],
      current: this.current && index >= 0 ? { key: this.current.key, index } : null,
      openCalls: [...this.openCalls.values()].map((call) => ({ ...call })),
      doneTurns: [...this.doneTurns],
    };
  }

  /** A builder continuing from a `snapshot()` (after a JSON round trip); throws on a malformed one. */
  static restore(value: unknown): ConversationBuilder {
    const state = checkConversationSnapshot(value);
    const builder = new ConversationBuilder();
    builder.list = state.list;
    for (const message of builder.list) restoredMessage(message);
    builder.pendingTurnStart = state.pendingTurnStart ?? undefined;
    for (const [turnId, start] of state.turnStarts) builder.turnStarts.set(turnId, start);
    if (state.current) builder.current = { key: state.current.key, message: builder.list[state.current.index] as AssistantMessage };
    for (const call of state.openCalls) builder.openCalls.set(call.callId, { callId: call.callId, turnId: call.turnId, tool: call.tool });
    for (const [turnId, start] of state.doneTurns ?? []) if (Number.isInteger(start) && start <= builder.list.length) builder.doneTurns.set(turnId, start);
    return builder;
  }

  /** A copy of the conversation so far (safe to hand to `runTurn`, which appends to it). */
  get messages(): Message[] {
    return this.list.slice();
  }

  private userMessage(event: Of<'user_message'>): void {
    if (event.mode === 'turn') this.pendingTurnStart = this.list.length;
    this.current = undefined;
    this.list.push({ role: 'user', text: event.text });
  }

  private assistant(turnId: string, iteration: number): AssistantMessage {
    const key = `${turnId}\u0000${iteration}`;
    if (this.current?.key === key) return this.current.message;
    const message: AssistantMessage = { role: 'assistant', text: '', toolCalls: [] };
    this.list.push(message);
    this.current = { key, message };
    return message;
  }

  private toolCall(event: Of<'tool_call'>): void {
    const raw = event.rawArgs;
    this.assistant(event.turnId, event.iteration).toolCalls.push(
      raw !== undefined
        ? { id: event.callId, name: event.tool, args: undefined, rawArgs: raw }
        : { id: event.callId, name: event.tool, args: event.args, rawArgs: JSON.stringify(event.args) ?? '' },
    );
    this.openCalls.set(event.callId, { callId: event.callId, turnId: event.turnId, tool: event.tool });
  }

  /**
   * The summary replaces the folded prefix, as the loop did in place; turn starts move with it so
   * a cancel after a mid-turn compaction rolls back to the same point as the live loop. O(n) once
   * per compaction, which is rare.
   */
  private compacted(event: Of<'compaction'>): void {
    const folded = Math.min(Math.max(0, Math.floor(event.foldedMessages)), this.list.length);
    this.list = applyCompaction(this.list, { foldedMessages: folded, summary: event.summary });
    for (const [turnId, start] of this.turnStarts) this.turnStarts.set(turnId, startAfterCompaction(start, folded));
    for (const [turnId, start] of this.doneTurns) this.doneTurns.set(turnId, startAfterCompaction(start, folded));
    if (this.pendingTurnStart !== undefined) this.pendingTurnStart = startAfterCompaction(this.pendingTurnStart, folded);
    if (this.current && this.list[this.list.length - 1] !== this.current.message) this.current = undefined;
  }

  private cancelled(turnId: string): void {
    const start = this.turnStarts.get(turnId);
    if (start !== undefined && start <= this.list.length) this.list.length = start;
    this.current = undefined;
    this.pendingTurnStart = undefined;
    this.forgetTurn(turnId);
  }

  private interrupted(turnId: string): void {
    for (const call of [...this.openCalls.values()]) {
      if (call.turnId !== turnId) continue;
      this.list.push({ role: 'tool', callId: call.callId, name: call.tool, output: INTERRUPTED_OUTPUT, isError: true });
    }
    this.current = undefined;
    this.forgetTurn(turnId);
  }

  private rememberDone(turnId: string): void {
    const start = this.turnStarts.get(turnId);
    if (start === undefined) return;
    this.doneTurns.set(turnId, start);
    while (this.doneTurns.size > MAX_DONE_TURNS) this.doneTurns.delete(this.doneTurns.keys().next().value as string);
  }

  /** `undo`: the conversation goes back to where the earliest of the undone turns began (one it knows). */
  private undone(turnIds: readonly string[]): void {
    let cut: number | undefined;
    for (const id of turnIds) {
      const start = this.doneTurns.get(id);
      if (start !== undefined) cut = cut === undefined ? start : Math.min(cut, start);
    }
    for (const id of turnIds) this.doneTurns.delete(id);
    if (cut === undefined || cut > this.list.length) return;
    this.list.length = cut;
    this.current = undefined;
    for (const [id, start] of this.doneTurns) if (start > cut) this.doneTurns.delete(id);
  }

  private forgetTurn(turnId: string): void {
    this.turnStarts.delete(turnId);
    for (const [id, call] of this.openCalls) if (call.turnId === turnId) this.openCalls.delete(id);
  }
}

/** Finished turns whose start is remembered for `undo` (more than any session keeps checkpoints of by default). */
const MAX_DONE_TURNS = 200;

/** JSON drops `args: undefined` (a call kept as raw text); put it back (in place: the parsed data is the builder's now). */
function restoredMessage(message: Message): Message {
  if (message.role === 'assistant') for (const call of message.toolCalls) if (!Object.hasOwn(call, 'args')) call.args = undefined;
  return message;
}

/** The conversation a list of session events describes. */
export function conversationFromEvents(events: Iterable<ConversationEvent>): Message[] {
  const builder = new ConversationBuilder();
  for (const event of events) builder.apply(event);
  return builder.messages;
}
