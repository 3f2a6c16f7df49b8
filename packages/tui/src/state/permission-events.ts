import type { EventOf } from '@tandem/shared';
import { commanderTool } from './agents.js';
import { summarizeArgs } from './arg-summary.js';
import { notice, updateTool } from './items.js';
import type { NoticeLevel, ViewState } from './types.js';

// Permission requests wait in the state until resolved; the answer and who gave it are shown
// on the tool call they were about (or as a notice when that call is not on screen).

export function permissionRequest(state: ViewState, event: EventOf<'permission_request'>): ViewState {
  if (state.pendingPermissions.some((pending) => pending.requestId === event.requestId)) return state;
  const { type: _type, sessionId: _sessionId, ts: _ts, ephemeral: _ephemeral, ...request } = event;
  return {
    ...state,
    pendingPermissions: [...state.pendingPermissions, request],
    turn: { phase: 'waiting_permission', turnId: state.turn.turnId, tool: event.tool },
  };
}

const DECISION_WORDS: Record<string, string> = {
  allow_once: 'allowed once',
  allow_session: 'allowed for this session',
  allow_forever: 'allowed forever',
  deny_once: 'denied once',
  deny_forever: 'denied forever',
};

export function permissionResolved(state: ViewState, event: EventOf<'permission_resolved'>): ViewState {
  const request = state.pendingPermissions.find((pending) => pending.requestId === event.requestId);
  const pendingPermissions = state.pendingPermissions.filter((pending) => pending.requestId !== event.requestId);
  const tool = request?.tool ?? 'tool';
  const words = DECISION_WORDS[event.decision] ?? event.decision;
  const reason = event.reason && event.reason !== 'answered' ? ` (${event.reason})` : '';
  const level: NoticeLevel = event.decision.startsWith('deny') ? 'warn' : 'info';
  const scope = event.scope ? ` (${event.scope})` : '';
  const text = `${words}${scope} by ${event.by}${reason}`;
  const hasItem = request !== undefined && state.items.some((item) => item.kind === 'tool' && item.callId === request.callId);
  const next =
    request && hasItem
      ? updateTool(state, request.callId, (item) => ({ ...item, permission: { text, allowed: level === 'info' } }))
      : notice(state, level, `permission for ${tool}${request ? ` ${summarizeArgs(tool, request.args)}` : ''}: ${text}`);
  const stillWaiting = pendingPermissions.length > 0;
  const turn =
    state.turn.phase === 'waiting_permission' && !stillWaiting
      ? { phase: 'running_tool' as const, turnId: state.turn.turnId, tool: request?.taskId ? (commanderTool(state) ?? state.turn.tool) : state.turn.tool }
      : state.turn;
  return {
    ...next,
    pendingPermissions,
    turn,
    lastResolved: { requestId: event.requestId, tool, decision: event.decision, by: event.by },
  };
}
