import type { EventOf, JobInfo, Role, SessionEvent, SessionInfo, Usage, WhoAmI } from '@tandem/shared';
import { genericCallSummary } from '@tandem/shared';
import { applyWhoAmI } from './access.js';

import { noticeFor } from './event-notices.js';
import { MAX_ITEMS, notice, pushItem, updateTool } from './items.js';
import { jobExited, jobStarted, jobsListed } from './jobs.js';
import { permissionRequest, permissionResolved } from './permission-events.js';
import { appendOutput, emptyOutput, stripAnsi } from './output-buffer.js';
import { imageLine } from './image-line.js';
import { prependItems, rememberOrphan } from './history.js';
import { COMMANDER, agentDone, agentStarted, finishAgents, floorChanged, isWorkerEvent, noteAgent, tagOf, withListedAgents, workerRunEvent } from './agents.js';
import { appendDelta, closeAllSegments, closeSegment, finaliseText } from './segments.js';
import type { ConnectionStatus, CopyLine, NoticeLevel, RunInProgress, ToolItem, ResultExcerpt, ToolStatus, ViewState } from './types.js';

/**
 * The whole view is a pure fold: `state = actions.reduce(reduce, initialState(...))`.
 * Session events are folded in seq order; an event at or below the last seq seen is a
 * duplicate (replay overlapping live) and changes nothing. Ephemeral events (text_delta)
 * carry the seq of the last persisted event and are applied as they come.
 */
export { MAX_ITEMS };

export type Action =
  | { kind: 'event'; event: SessionEvent }
  | { kind: 'connection'; connection: ConnectionStatus }
  | { kind: 'attached'; session: SessionInfo; role: Role }
  /** `copy`: lines to copy (a share's link and attach line), drawn undecorated under the notice. */
  | { kind: 'notice'; level: NoticeLevel; text: string; copy?: readonly CopyLine[] }
  /** The server said who this client is (`client:whoami`): its token kind, name and share. */
  | { kind: 'whoami'; whoami: WhoAmI }
  | { kind: 'focus'; focus: ViewState['focus'] }
  /** A jobs:list answer. */
  | { kind: 'jobs'; jobs: JobInfo[] }
  /** An older page of the log (`session:history`): its items go above the view's. */
  | { kind: 'history'; events: readonly SessionEvent[] }
  /** Ctrl-T: type into this running command (a callId), or back to chat (null). */
  | { kind: 'command_focus'; callId: string | null }
  /** Ctrl-O: this terminal shows (or hides again) anonymous workers' items. */
  | { kind: 'show_hidden'; show: boolean };

/** Result lines kept per tool call. */
export const RESULT_LINES = 4;

export function initialState(options: { url: string; me: string; role: Role }): ViewState {
  return {
    url: options.url,
    me: options.me,
    role: options.role,
    tokenKind: null,
    share: null,
    connection: { status: 'connecting' },
    session: null,
    model: null,
    lastSeq: 0,
    items: [],
    turn: { phase: 'idle' },
    presence: [],
    context: null,
    lastUsage: null,
    run: null,
    pendingPermissions: [],
    lastResolved: null,
    focus: 'input',
    jobs: [],
    commandFocus: null,
    agents: [],
    agentNames: [],
    floor: null,
    showHidden: false,
  };
}

export function reduce(state: ViewState, action: Action): ViewState {
  switch (action.kind) {
    case 'event':
      return reduceEvent(state, action.event);
    case 'connection':
      return connectionChanged(state, action.connection);
    case 'whoami':
      return applyWhoAmI(state, action.whoami);
    case 'attached':
      return attached(state, action.session, action.role);
    case 'notice':
      return pushItem(state, { kind: 'notice', level: action.level, text: action.text, ...(action.copy ? { copy: action.copy } : {}) });
    case 'focus':
      return { ...state, focus: action.focus };
    case 'jobs':
      return jobsListed(state, action.jobs);
    case 'history':
      return olderPage(state, action.events);
    case 'command_focus':
      return focusCommand(state, action.callId);
    case 'show_hidden':
      return state.showHidden === action.show ? state : { ...state, showHidden: action.show };
  }
}

export function reduceAll(state: ViewState, actions: Iterable<Action>): ViewState {
  let next = state;
  for (const action of actions) next = reduce(next, action);
  return next;
}

/** An older page folded on its own (its questions, phase and run are history, only its items count), above the view's items. */
function olderPage(state: ViewState, events: readonly SessionEvent[]): ViewState {
  let older: ViewState = { ...initialState({ url: state.url, me: state.me, role: state.role }), session: state.session, model: state.model };
  for (const event of events) older = reduceEvent(older, event);
  return prependItems(state, older.items);
}

/**
 * The server refused this client for good (its share was revoked or expired, or its token is
 * no longer accepted): the transcript says why and how to leave; a question it can no longer
 * answer goes away.
 */
function connectionChanged(state: ViewState, connection: ConnectionStatus): ViewState {
  const next = { ...state, connection };
  if (connection.status !== 'refused' || state.connection.status === 'refused') return next;
  return { ...notice(next, 'error', `${connection.message} · press any key to close`), pendingPermissions: [], commandFocus: null };
}

function attached(state: ViewState, session: SessionInfo, role: Role): ViewState {
  const fresh = () => ({ ...initialState({ url: state.url, me: state.me, role }), tokenKind: state.tokenKind, share: state.share });
  const base = state.session && state.session.id !== session.id ? fresh() : state;
  // A streamed answer in progress is re-sent whole (one text_delta) after attaching: drop ours.
  const items = base.items.filter((item) => !(item.kind === 'assistant' && !item.final));
  return {
    ...base,
    connection: state.connection,
    role,
    items,
    session: {
      id: session.id,
      title: session.title,
      cwd: session.cwd,
      model: session.model,
      mode: session.mode ?? 'ask',
      sandbox: session.sandbox,
      searchOnly: session.searchOnly,
    },
    model: base.model ?? session.model,
    floor: session.floor ?? base.floor,
    agentNames: withListedAgents(base.agentNames, session),
  };
}

function reduceEvent(state: ViewState, event: SessionEvent): ViewState {
  if (state.session && event.sessionId !== state.session.id) return state;
  if (!event.ephemeral && event.seq <= state.lastSeq) return state;
  const noted = noteAgent(state, event);
  const next = workerRunEvent(noted, event) ?? applyEvent(noted, event);
  return event.ephemeral ? next : { ...next, lastSeq: event.seq };
}

function applyEvent(state: ViewState, event: SessionEvent): ViewState {
  switch (event.type) {
    case 'session_info':
      return {
        ...state,
        session: { mode: 'ask', ...state.session, id: event.sessionId, title: event.title, cwd: event.cwd, model: event.model },
        model: state.model ?? event.model,
      };
    case 'session_configured':
      return configured(state, event);
    case 'user_message':
      return pushItem(state, { kind: 'user', seq: event.seq, text: event.text, by: event.by, steer: event.mode === 'steer' });
    case 'turn_started':
      return {
        ...state,
        model: event.model,
        turn: { phase: 'thinking', turnId: event.turnId },
        run: { turnId: event.turnId, model: event.model, calls: [], ...(event.agent && event.agent !== COMMANDER ? { agent: event.agent } : {}) },
      };
    case 'thinking':
      return isWorkerEvent(event) ? state : withPhase(state, 'thinking');
    case 'text_delta': {
      const next = appendDelta(state, event.turnId, event.delta, tagOf(state, event));
      return isWorkerEvent(event) ? next : withPhase(next, 'writing');
    }
    case 'assistant_text':
      return finaliseText(state, event.turnId, event.text, tagOf(state, event));
    case 'agent_started':
      return agentStarted(state, event);
    case 'agent_done':
      return agentDone(state, event);
    case 'floor_changed':
      return floorChanged(state, event);
    case 'tool_call':
      return toolCall(state, event);
    case 'command_output':
      return updateTool(state, event.callId, (item) => ({ ...item, live: appendOutput(item.live ?? emptyOutput(), event.data) }));
    case 'tool_result':
      return toolResult(state, event);
    case 'turn_done':
      return finishAgents(turnDone(state, event), event.turnId);
    case 'turn_cancelled':
      return finishAgents(endEarly(state, event.turnId, 'cancelled', `turn cancelled: ${event.note}`), event.turnId);
    case 'turn_interrupted':
      return finishAgents(endEarly(state, event.turnId, 'interrupted', `turn interrupted: ${event.reason}`), event.turnId);
    case 'presence':
      return { ...state, presence: event.clients };
    case 'permission_request':
      return permissionRequest(state, event);
    case 'permission_resolved':
      return permissionResolved(state, event);
    case 'model_fallback':
      return {
        ...notice(state, 'warn', `model fallback: ${event.from} → ${event.to} (${event.reason})`),
        model: event.to,
        run: state.run ? { ...state.run, model: event.to } : null,
      };
    case 'usage':
      return state.run && state.run.turnId === event.turnId ? { ...state, run: { ...state.run, usage: addUsage(state.run.usage, event) } } : state;
    case 'context_usage':
      return { ...state, context: { percent: event.percent, usedTokens: event.usedTokens, windowTokens: event.windowTokens } };
    case 'conversation_cleared':
      return { ...notice(state, 'info', `── conversation cleared by ${event.by} ──`), context: null };
    case 'command_input':
      return state;
    case 'job_started':
      return jobStarted(withNotice(state, event), event);
    case 'job_exited':
      return jobExited(withNotice(state, event), event);
    default: {
      const line = noticeFor(event);
      return line ? notice(state, line.level, line.text) : state;
    }
  }
}

/** `/model`, `/mode`, `/title` by anyone attached: the new values, and one line saying who changed what. */
function configured(state: ViewState, event: EventOf<'session_configured'>): ViewState {
  const changes: string[] = [];
  if (event.model) changes.push(`model → ${event.model}`);
  if (event.mode) changes.push(`approval mode → ${event.mode}`);
  if (event.title) changes.push(`title → ${event.title}`);
  if (event.searchOnly !== undefined) changes.push(event.searchOnly ? 'search only → on (web_search is the only tool)' : 'search only → off');
  if (changes.length === 0) return state;
  const session = state.session
    ? {
        ...state.session,
        ...(event.model ? { model: event.model } : {}),
        ...(event.mode ? { mode: event.mode } : {}),
        ...(event.title ? { title: event.title } : {}),
        ...(event.searchOnly !== undefined ? { searchOnly: event.searchOnly } : {}),
      }
    : null;
  return { ...notice(state, 'info', `${changes.join(', ')} (by ${event.by})`), session, model: event.model ?? state.model };
}

function withNotice(state: ViewState, event: SessionEvent): ViewState {
  const line = noticeFor(event);
  return line ? notice(state, line.level, line.text) : state;
}

/** Only a command (a tool of kind `execute`) that is still running can take the input line. */
function focusCommand(state: ViewState, callId: string | null): ViewState {
  if (callId === null) return state.commandFocus === null ? state : { ...state, commandFocus: null };
  const running = state.items.some((item) => item.kind === 'tool' && item.callId === callId && item.toolKind === 'execute' && item.status === 'running');
  return running ? { ...state, commandFocus: callId } : state;
}

/** The callId of the newest command (a tool of kind `execute`) still running, if any. */
export function runningCommand(state: ViewState): string | undefined {
  for (let i = state.items.length - 1; i >= 0; i--) {
    const item = state.items[i];
    if (item?.kind === 'tool' && item.toolKind === 'execute' && item.status === 'running') return item.callId;
  }
  return undefined;
}

function withPhase(state: ViewState, phase: 'thinking' | 'writing'): ViewState {
  if (state.turn.phase === 'idle' || state.turn.phase === 'waiting_permission') return state;
  return { ...state, turn: { phase, turnId: state.turn.turnId } };
}

function toolCall(state: ViewState, event: EventOf<'tool_call'>): ViewState {
  const summary = event.summary ?? genericCallSummary(event.args);
  const item: ToolItem = {
    kind: 'tool',
    turnId: event.turnId,
    callId: event.callId,
    tool: event.tool,
    ...(event.kind ? { toolKind: event.kind } : {}),
    summary,
    danger: event.danger,
    status: 'running',
    ...(event.reason ? { reason: event.reason } : {}),
    ...tagOf(state, event),
  };
  const next = pushItem(closeSegment(state, tagOf(state, event)), item);
  if (isWorkerEvent(event)) return next;
  const run = runFor(state, event.turnId);
  return {
    ...next,
    turn:
      state.turn.phase === 'waiting_permission'
        ? state.turn
        : { phase: 'running_tool', turnId: event.turnId, tool: event.tool, ...(event.kind ? { toolKind: event.kind } : {}) },
    run: { ...run, calls: [...run.calls, { callId: event.callId, tool: event.tool, summary, status: 'running' }] },
  };
}

function toolResult(state: ViewState, event: EventOf<'tool_result'>): ViewState {
  const status: ToolStatus = event.isError ? 'error' : 'ok';
  // A command's result is shown from its tail (where the error is), anything else from its head.
  const resultOf = (end: 'head' | 'tail') => {
    const text = excerpt(event.output, end);
    return event.images?.length ? { ...text, images: event.images.map(imageLine) } : text;
  };
  let next = updateTool(state, event.callId, (item) => ({
    ...item,
    status,
    durationMs: event.durationMs,
    result: resultOf(item.toolKind === 'execute' ? 'tail' : 'head'),
  }));
  if (next === state) next = rememberOrphan(state, { callId: event.callId, status, durationMs: event.durationMs, result: resultOf('head') });
  if (next.run) {
    const calls = next.run.calls.map((call) => (call.callId === event.callId ? { ...call, status, durationMs: event.durationMs } : call));
    next = { ...next, run: { ...next.run, calls } };
  }
  if (next.commandFocus === event.callId) next = { ...next, commandFocus: null };
  if (next.turn.phase === 'running_tool' && next.pendingPermissions.length === 0 && !isWorkerEvent(event)) {
    next = { ...next, turn: { phase: 'thinking', turnId: next.turn.turnId } };
  }
  return next;
}

/** A few lines of a tool's output, blank lines at either end dropped. */
export function excerpt(output: string, from: 'head' | 'tail'): ResultExcerpt {
  const lines = stripAnsi(output)
    .replace(/\r\n?/g, '\n')
    .replace(/^\s*\n/, '')
    .replace(/\s+$/, '')
    .split('\n');
  if (lines.length === 1 && lines[0] === '') return { lines: [], omitted: 0, from };
  const kept = from === 'tail' ? lines.slice(-RESULT_LINES) : lines.slice(0, RESULT_LINES);
  return { lines: kept, omitted: lines.length - kept.length, from };
}

function runFor(state: ViewState, turnId: string): RunInProgress {
  if (state.run && state.run.turnId === turnId) return state.run;
  return { turnId, model: state.model ?? state.session?.model ?? 'unknown', calls: [] };
}

function turnDone(state: ViewState, event: EventOf<'turn_done'>): ViewState {
  const run = runFor(state, event.turnId);
  const usage = event.usage ?? run.usage;
  const model = event.model ?? run.model;
  const next = pushItem(closeAllSegments(state), {
    kind: 'run_summary',
    turnId: event.turnId,
    ...(run.agent ? { agent: run.agent } : {}),
    model,
    iterations: event.iterations,
    outcome: event.outcome ?? 'answered',
    calls: run.calls,
    ...(usage ? { usage } : {}),
  });
  return {
    ...next,
    model,
    run: null,
    turn: { phase: 'idle' },
    pendingPermissions: [],
    lastUsage: usage ?? state.lastUsage,
    commandFocus: null,
  };
}

function endEarly(state: ViewState, turnId: string, outcome: string, text: string): ViewState {
  let next = closeAllSegments(state);
  const run = runFor(next, turnId);
  const stopped = new Set(run.calls.filter((call) => call.status === 'running').map((call) => call.callId));
  if (stopped.size > 0) {
    next = { ...next, items: next.items.map((item) => (item.kind === 'tool' && stopped.has(item.callId) ? { ...item, status: 'stopped' } : item)) };
  }
  next = notice(next, 'warn', text);
  if (run.calls.length > 0) {
    next = pushItem(next, {
      kind: 'run_summary',
      turnId,
      model: run.model,
      iterations: 0,
      outcome,
      calls: run.calls.map((call) => (call.status === 'running' ? { ...call, status: 'stopped' } : call)),
      ...(run.usage ? { usage: run.usage } : {}),
    });
  }
  return { ...next, run: null, turn: { phase: 'idle' }, pendingPermissions: [], lastUsage: run.usage ?? next.lastUsage, commandFocus: null };
}

/** Two usages added; the cache parts and the cost only when either has them (the cost unknown once one part lacks it). */
function addUsage(previous: Usage | undefined, add: Usage): Usage {
  const sum: Usage = {
    inputTokens: (previous?.inputTokens ?? 0) + add.inputTokens,
    outputTokens: (previous?.outputTokens ?? 0) + add.outputTokens,
  };
  if (previous?.cacheReadTokens !== undefined || add.cacheReadTokens !== undefined)
    sum.cacheReadTokens = (previous?.cacheReadTokens ?? 0) + (add.cacheReadTokens ?? 0);
  if (previous?.cacheWriteTokens !== undefined || add.cacheWriteTokens !== undefined)
    sum.cacheWriteTokens = (previous?.cacheWriteTokens ?? 0) + (add.cacheWriteTokens ?? 0);
  if (add.costUsd !== undefined && (previous === undefined || previous.costUsd !== undefined)) sum.costUsd = (previous?.costUsd ?? 0) + add.costUsd;
  return sum;
}
