import { genericCallSummary } from '@tandem/shared';
import type { EventOf, ToolKind } from '@tandem/shared';
import { commanderCall } from './agents.js';
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
  const asked = request === undefined ? undefined : state.items.find((item) => item.kind === 'tool' && item.callId === request.callId);
  const hasItem = asked !== undefined;
  const next =
    request && hasItem
      ? updateTool(state, request.callId, (item) => ({ ...item, permission: { text, allowed: level === 'info' } }))
      : notice(state, level, `permission for ${tool}${request ? ` ${request.summary ?? genericCallSummary(request.args)}` : ''}: ${text}`);
  const stillWaiting = pendingPermissions.length > 0;
  const turn =
    state.turn.phase === 'waiting_permission' && !stillWaiting
      ? resumed(state, request?.taskId ? commanderCall(state) : asked?.kind === 'tool' ? asked : undefined)
      : state.turn;
  return {
    ...next,
    pendingPermissions,
    turn,
    lastResolved: { requestId: event.requestId, tool, decision: event.decision, by: event.by },
  };
}

/** The turn after its last question: running the call that asked (a worker's question: the commander's running call). */
function resumed(state: ViewState, call: { tool: string; toolKind?: ToolKind } | undefined): ViewState['turn'] {
  return {
    phase: 'running_tool',
    turnId: state.turn.turnId,
    tool: call?.tool ?? state.turn.tool,
    ...(call?.toolKind ? { toolKind: call.toolKind } : {}),
  };
}
