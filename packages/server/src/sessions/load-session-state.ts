import type { SessionEvent } from '@tandem/shared';
import { AgentSlices } from '../agents/agent-slices.js';
import type { SessionEngine } from './engine.js';
import type { LoadedState } from './session.js';
import type { SessionLog } from './session-log.js';
import { TURN_END_TYPES } from './turn-end-types.js';

export interface LoadResult extends LoadedState {
  /** permission_request / permission_resolved events, to expire questions nobody can answer now. */
  permissionEvents: Array<{ type: string; requestId?: unknown }>;
  /** A turn that started and never ended: the server stopped while it ran. */
  openTurnId: string | undefined;
  /** The last presence event listed clients: none are attached after a restart. */
  stalePresence: boolean;
  /** The metadata the first `session_info` recorded (for sessions missing from the index). */
  info: Extract<SessionEvent, { type: 'session_info' }> | undefined;
}

/** Reads a session's log once: last seq, granted paths, the conversation, an unfinished turn. */
export async function loadSessionState(log: SessionLog, engine: SessionEngine): Promise<LoadResult> {
  const conversation = new AgentSlices(() => engine.createConversation());
  const granted: string[] = [];
  let openTurnId: string | undefined;
  let info: LoadResult['info'];
  const permissionEvents: LoadResult['permissionEvents'] = [];
  let stalePresence = false;
  const lastSeq = await log.load((event) => {
    if (event.type === 'turn_started') openTurnId = event.turnId;
    else if (TURN_END_TYPES.has(event.type)) openTurnId = undefined;
    else if (event.type === 'sandbox_granted') granted.push(event.path);
    else if (event.type === 'session_info') info ??= event;
    else if (event.type === 'presence') stalePresence = event.clients.length > 0;
    else if (event.type === 'permission_request' || event.type === 'permission_resolved') {
      permissionEvents.push({ type: event.type, requestId: event.requestId });
    }
    conversation.apply(event);
  });
  return { lastSeq, granted, conversation, openTurnId, info, permissionEvents, stalePresence };
}
