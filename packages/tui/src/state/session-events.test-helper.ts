import type { Role, SessionEvent, SessionInfo } from '@tandem/shared';
import { type Action, initialState, reduce, reduceAll } from './reducer.js';
import type { ViewState } from './types.js';

// The view-state tests' shared set-up: events written as bodies, stamped as the server stamps
// them, folded into the state of a client attached to a session.

/** An event as a test writes it: without the session id, seq and time the server adds. */
export type Body = SessionEvent extends infer E ? (E extends SessionEvent ? Omit<E, 'sessionId' | 'seq' | 'ts'> : never) : never;

/** Stamps bodies like the server does: persisted events get the next seq, ephemeral ones the last. */
export function stamp(bodies: Body[], sessionId = 's1'): SessionEvent[] {
  let seq = 0;
  return bodies.map((body) => {
    const ephemeral = body.type === 'text_delta';
    if (!ephemeral) seq += 1;
    return { ...body, sessionId, seq, ts: '2026-01-01T00:00:00.000Z', ...(ephemeral ? { ephemeral: true } : {}) } as SessionEvent;
  });
}

/** The state of `me` just attached to `session` in `role`. */
export function attachedState(session: SessionInfo, role: Role = 'driver', me = 'ana@box', url = 'http://127.0.0.1:7777'): ViewState {
  return reduce(initialState({ url, me, role }), { kind: 'attached', session, role });
}

/** `state` after the events, in order. */
export function foldEvents(state: ViewState, events: readonly SessionEvent[]): ViewState {
  return reduceAll(
    state,
    events.map((event): Action => ({ kind: 'event', event })),
  );
}

/** A tool call of turn t1's first iteration; `extra` adds the agent that made it, or changes the turn or iteration. */
export function toolCall(
  callId: string,
  tool: string,
  kind: string,
  summary: string,
  args: Record<string, unknown>,
  danger: 'safe' | 'dangerous',
  extra: Record<string, unknown> = {},
): Body {
  return { type: 'tool_call', turnId: 't1', iteration: 1, callId, tool, kind, summary, args, danger, ...extra } as Body;
}
