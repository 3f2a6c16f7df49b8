import type { EventOf, SessionEvent, Usage } from '@tandem/shared';
import { findLast, notice, pushItem, replaceAt } from './items.js';
import type { AgentItem, AgentRun, AgentStatus, AgentTag, RunAgent, RunSummaryItem, ToolItem, TranscriptItem, ViewState } from './types.js';

/**
 * The commander and its workers in the view state: who runs and what each is doing (the status
 * line), the floor, the names `@` completes, and the tag each item carries (agent, taskId, and
 * whether it belongs to an anonymous worker, drawn only when expanded). Pure, like the reducer.
 */

/** Worker runs kept in the state (the status line shows the running ones; older ones fall off). */
export const MAX_AGENT_RUNS = 200;

/** The commander's name on the wire; events without `agent` are the commander's too. */
export const COMMANDER = 'commander';

const ANONYMOUS = /^worker-\d+$/;

/** Names `@` completes: the commander, then every agent seen on the wire (anonymous workers cannot be addressed). */
export function mentionNames(state: ViewState): string[] {
  return [COMMANDER, ...state.agentNames.filter((name) => name !== COMMANDER)];
}

/** The item tag for an event: its agent and taskId, and `hidden` when it is an anonymous worker's. */
export function tagOf(state: ViewState, event: { agent?: string | undefined; taskId?: string | undefined }): AgentTag {
  const tag: AgentTag = {};
  // Agents are labelled only in a session that has some: alone, the commander is just "the agent".
  if (event.agent && (event.agent !== COMMANDER || hasAgents(state))) tag.agent = event.agent;
  if (event.taskId) {
    tag.taskId = event.taskId;
    if (isHiddenTask(state, event.taskId, event.agent)) tag.hidden = true;
  }
  return tag;
}

/** Whether the session has agents besides the commander: defined ones, or workers seen in this view. */
export function hasAgents(state: ViewState): boolean {
  return state.agents.length > 0 || state.agentNames.some((name) => name !== COMMANDER);
}

/** A worker's event (it carries a taskId): it does not move the commander's turn phase or run summary. */
export function isWorkerEvent(event: { taskId?: string | undefined }): boolean {
  return Boolean(event.taskId);
}

/**
 * Whether a task's items are hidden: its agent_started said so, or, when that event is not in
 * this view (older than an attach's tail), its name is an anonymous worker's (`worker-N` is
 * reserved for them).
 */
function isHiddenTask(state: ViewState, taskId: string, agent: string | undefined): boolean {
  const run = findRun(state, taskId);
  return run ? !run.visible : agent !== undefined && ANONYMOUS.test(agent);
}

function findRun(state: ViewState, taskId: string): AgentRun | undefined {
  for (let i = state.agents.length - 1; i >= 0; i--) if (state.agents[i]?.taskId === taskId) return state.agents[i];
  return undefined;
}

function updateRun(state: ViewState, taskId: string, update: (run: AgentRun) => AgentRun): ViewState {
  const index = state.agents.findIndex((run) => run.taskId === taskId);
  const run = state.agents[index];
  if (!run) return state;
  const next = update(run);
  if (next === run) return state;
  const agents = state.agents.slice();
  agents[index] = next;
  return { ...state, agents };
}

/**
 * The agent names the session lists (`SessionInfo.agents`, where the server sends it) added to
 * those seen so far, so `@` completes a defined agent before it has said anything.
 */
export function withListedAgents(names: string[], session: object): string[] {
  const listed = (session as { agents?: unknown }).agents;
  if (!Array.isArray(listed)) return names;
  const added = listed
    .map((entry) => (typeof entry === 'object' && entry !== null ? (entry as { name?: unknown }).name : undefined))
    .filter((name): name is string => typeof name === 'string' && !ANONYMOUS.test(name) && !names.includes(name));
  return added.length === 0 ? names : [...names, ...new Set(added)].sort();
}

function rememberName(state: ViewState, name: string | undefined): ViewState {
  if (!name || ANONYMOUS.test(name) || state.agentNames.includes(name)) return state;
  return { ...state, agentNames: [...state.agentNames, name].sort() };
}

/**
 * Runs before the reducer's own handling of every event: learns agent names and keeps each
 * running worker's activity, iterations and tokens current.
 */
export function noteAgent(state: ViewState, event: SessionEvent): ViewState {
  const next = rememberName(state, event.agent);
  if (event.type === 'permission_resolved') {
    // The worker that asked goes on with its tool (the answer may not carry its taskId).
    const taskId = event.taskId ?? state.pendingPermissions.find((pending) => pending.requestId === event.requestId)?.taskId;
    return taskId ? updateRun(next, taskId, (run) => (run.activity === 'permission' ? { ...run, activity: 'tool' } : run)) : next;
  }
  if (!event.taskId || event.type === 'agent_started' || event.type === 'agent_done') return next;
  switch (event.type) {
    case 'thinking':
      return updateRun(next, event.taskId, (run) => (run.activity === 'thinking' ? run : { ...run, activity: 'thinking', tool: undefined }));
    case 'text_delta':
      return updateRun(next, event.taskId, (run) => (run.activity === 'writing' ? run : { ...run, activity: 'writing', tool: undefined }));
    case 'assistant_text':
      return updateRun(next, event.taskId, (run) => ({ ...withIteration(run, event.iteration), activity: 'thinking', tool: undefined }));
    case 'tool_call':
      return updateRun(next, event.taskId, (run) => ({ ...withIteration(run, event.iteration), activity: 'tool', tool: event.tool }));
    case 'tool_result':
      return updateRun(next, event.taskId, (run) => ({ ...run, activity: 'thinking', tool: undefined }));
    case 'permission_request':
      return updateRun(next, event.taskId, (run) => ({ ...run, activity: 'permission', tool: event.tool }));
    case 'usage':
      return updateRun(next, event.taskId, (run) => ({ ...run, usage: addUsage(run.usage, event) }));
    default:
      return next;
  }
}

/**
 * A worker's own run events (turn_started, turn_done, turn_cancelled, turn_interrupted,
 * context_usage with its taskId) describe its run, not the session's turn: they update the
 * worker and never start, end or measure the commander's turn. Null for any other event.
 */
export function workerRunEvent(state: ViewState, event: SessionEvent): ViewState | null {
  if (!event.taskId) return null;
  const taskId = event.taskId;
  switch (event.type) {
    case 'turn_started':
      return updateRun(state, taskId, (run) => ({ ...run, activity: 'thinking', tool: undefined }));
    case 'turn_done':
      return updateRun(state, taskId, (run) => ({
        ...run,
        iterations: Math.max(run.iterations, event.iterations),
        ...(event.usage ? { usage: event.usage } : {}),
        tool: undefined,
      }));
    case 'turn_cancelled':
    case 'turn_interrupted': {
      // Its streamed text stays as it was; its running calls stopped with it.
      const items = state.items.map((item) => {
        if (item.kind === 'assistant' && !item.final && item.taskId === taskId) return { ...item, final: true };
        if (item.kind === 'tool' && item.status === 'running' && item.taskId === taskId) return { ...item, status: 'stopped' as const };
        return item;
      });
      return { ...state, items };
    }
    case 'context_usage':
      return state;
    default:
      return null;
  }
}

function withIteration(run: AgentRun, iteration: number | undefined): AgentRun {
  return iteration !== undefined && iteration > run.iterations ? { ...run, iterations: iteration } : run;
}

export function agentStarted(state: ViewState, event: EventOf<'agent_started'>): ViewState {
  const agent = event.agent ?? 'worker';
  const turnId = event.turnId ?? state.turn.turnId;
  const run: AgentRun = {
    agent,
    taskId: event.taskId,
    parent: event.parent,
    task: event.task,
    visible: event.visible,
    ...(turnId ? { turnId } : {}),
    status: 'running',
    activity: 'thinking',
    iterations: 0,
  };
  const runs = [...state.agents.filter((existing) => existing.taskId !== event.taskId), run];
  const item: AgentItem = {
    kind: 'agent',
    phase: 'started',
    agent,
    taskId: event.taskId,
    parent: event.parent,
    text: event.task,
    visible: event.visible,
    status: 'running',
  };
  return pushItem({ ...state, agents: runs.length > MAX_AGENT_RUNS ? runs.slice(runs.length - MAX_AGENT_RUNS) : runs }, item);
}

export function agentDone(state: ViewState, event: EventOf<'agent_done'>): ViewState {
  const known = findRun(state, event.taskId);
  const status: AgentStatus = event.isError ? 'error' : 'done';
  const agent = event.agent ?? known?.agent ?? 'worker';
  const iterations = event.iterations ?? known?.iterations ?? 0;
  const usage = event.usage ?? known?.usage;
  let next = updateRun(state, event.taskId, (run) => ({ ...run, status, iterations, ...(usage ? { usage } : {}), tool: undefined }));
  next = markStarted(next, event.taskId, status);
  const visible = known?.visible ?? !ANONYMOUS.test(agent);
  const item: AgentItem = {
    kind: 'agent',
    phase: 'done',
    agent,
    taskId: event.taskId,
    parent: known?.parent ?? COMMANDER,
    text: event.result,
    visible,
    status,
    isError: event.isError,
    iterations,
    ...(usage ? { usage } : {}),
    ...(visible ? {} : { hidden: true as const }),
    ...(!event.isError && lastAnswer(next, event.taskId) === event.result.trim() ? { echoed: true as const } : {}),
  };
  return pushItem(next, item);
}

/** The text of the worker's newest answer segment, trimmed. */
function lastAnswer(state: ViewState, taskId: string): string | undefined {
  const index = findLast(state.items, (item) => item.kind === 'assistant' && item.taskId === taskId);
  const item = state.items[index];
  return item?.kind === 'assistant' ? item.text.trim() : undefined;
}

/** The worker's started line follows it: running, then how it ended. */
function markStarted(state: ViewState, taskId: string, status: AgentStatus): ViewState {
  const index = findLast(state.items, (item) => item.kind === 'agent' && item.phase === 'started' && item.taskId === taskId);
  if (index < 0) return state;
  const item = state.items[index] as AgentItem;
  return item.status === status ? state : replaceAt(state, index, { ...item, status });
}

export function floorChanged(state: ViewState, event: EventOf<'floor_changed'>): ViewState {
  const holder = event.agent ?? COMMANDER;
  const text =
    holder === COMMANDER
      ? `the floor is back with the commander (by ${event.by})`
      : `${holder} has the floor (by ${event.by}): messages that name no one go to ${holder}`;
  return { ...notice(rememberName(state, holder), 'info', text), floor: holder };
}

/**
 * After a turn ends (done, cancelled, interrupted): workers that never reported are stopped, and
 * the turn's run summary lists each worker it started.
 */
export function finishAgents(state: ViewState, turnId: string): ViewState {
  let next = state;
  const stopped = new Set<string>();
  for (const run of state.agents) {
    if (run.status !== 'running') continue;
    stopped.add(run.taskId);
    next = updateRun(next, run.taskId, (current) => ({ ...current, status: 'stopped', tool: undefined }));
    next = markStarted(next, run.taskId, 'stopped');
  }
  if (stopped.size > 0) {
    const items = next.items.map((item) =>
      item.kind === 'tool' && item.status === 'running' && item.taskId && stopped.has(item.taskId) ? { ...item, status: 'stopped' as const } : item,
    );
    next = { ...next, items };
  }
  const mine: RunAgent[] = next.agents
    .filter((run) => run.turnId === turnId)
    .map((run) => ({ agent: run.agent, taskId: run.taskId, status: run.status, iterations: run.iterations, ...(run.usage ? { usage: run.usage } : {}) }));
  if (mine.length === 0) return next;
  const index = findLast(next.items, (item) => item.kind === 'run_summary' && item.turnId === turnId);
  if (index < 0) return next;
  return replaceAt(next, index, { ...(next.items[index] as RunSummaryItem), agents: mine });
}

/** The commander's newest running tool (a worker's permission answer puts the turn back on it), if any. */
export function commanderCall(state: ViewState): ToolItem | undefined {
  for (let i = state.items.length - 1; i >= 0; i--) {
    const item = state.items[i];
    if (item?.kind === 'tool' && item.status === 'running' && !item.taskId) return item;
  }
  return undefined;
}

/** Workers running now, in start order. */
export function runningAgents(state: ViewState): AgentRun[] {
  return state.agents.filter((run) => run.status === 'running');
}

/** Whether anything of an anonymous worker is in the transcript (so Ctrl-O has something to show). */
export function hasHiddenItems(state: ViewState): boolean {
  return state.agents.some((run) => !run.visible);
}

/** The items a terminal draws: an anonymous worker's items only when this terminal expanded them. */
export function shownItem(item: TranscriptItem, showHidden: boolean): boolean {
  return showHidden || !('hidden' in item && item.hidden);
}

function addUsage(previous: Usage | undefined, add: { inputTokens: number; outputTokens: number }): Usage {
  return { inputTokens: (previous?.inputTokens ?? 0) + add.inputTokens, outputTokens: (previous?.outputTokens ?? 0) + add.outputTokens };
}
