/** How a task was started: `dispatch_to` a defined agent, or `run_worker`. */
export type LedgerTaskKind = 'dispatch' | 'worker';
export type LedgerTaskStatus = 'running' | 'done' | 'failed' | 'cancelled';

/** One task the commander gave out. */
export interface LedgerTask {
  taskId: string;
  agent: string;
  kind: LedgerTaskKind;
  task: string;
  status: LedgerTaskStatus;
  /** When it was dispatched and when it came back (ms since epoch, from the host's clock). */
  startedAt: number;
  endedAt?: number;
  /** The answer or error, shortened to `MAX_LEDGER_RESULT` characters (the full text is in the session's events). */
  result?: string;
}

/**
 * The commander's record of what it dispatched and what came back (requirements G4): persisted with the
 * session, so after a hand-back (or a restart) the commander resumes what is unfinished. Plain
 * data; the functions below return a new ledger and never change the one given.
 */
export interface Ledger {
  tasks: readonly LedgerTask[];
}

export const MAX_LEDGER_RESULT = 2_000;

export function emptyLedger(): Ledger {
  return { tasks: [] };
}

export function recordDispatched(ledger: Ledger, task: { taskId: string; agent: string; kind: LedgerTaskKind; task: string; at: number }): Ledger {
  const entry: LedgerTask = { taskId: task.taskId, agent: task.agent, kind: task.kind, task: task.task, status: 'running', startedAt: task.at };
  return { tasks: [...ledger.tasks.filter((t) => t.taskId !== task.taskId), entry] };
}

export function recordReturned(ledger: Ledger, outcome: { taskId: string; isError: boolean; result: string; at: number }): Ledger {
  return update(ledger, outcome.taskId, { status: outcome.isError ? 'failed' : 'done', endedAt: outcome.at, result: shorten(outcome.result) });
}

/** Marks running tasks cancelled (all of them without `taskIds`: the session's one stop path). */
export function recordCancelled(ledger: Ledger, at: number, taskIds?: readonly string[]): Ledger {
  const hit = (t: LedgerTask) => t.status === 'running' && (!taskIds || taskIds.includes(t.taskId));
  return { tasks: ledger.tasks.map((t) => (hit(t) ? { ...t, status: 'cancelled', endedAt: at } : t)) };
}

/** Tasks that did not come back with an answer: still running, cancelled, or failed. */
export function unfinishedTasks(ledger: Ledger): LedgerTask[] {
  return ledger.tasks.filter((t) => t.status !== 'done');
}

/** Drops the tasks the commander has dealt with (`done` ones, and any listed), keeping the ledger small. */
export function settleTasks(ledger: Ledger, taskIds?: readonly string[]): Ledger {
  return { tasks: ledger.tasks.filter((t) => t.status !== 'done' && !(taskIds?.includes(t.taskId) ?? false)) };
}

/**
 * What the commander is told when the floor comes back to it: its unfinished tasks, with what
 * each returned so far. Undefined when nothing is unfinished.
 */
export function ledgerResumeNote(ledger: Ledger): string | undefined {
  const open = unfinishedTasks(ledger);
  if (open.length === 0) return undefined;
  const lines = open.map((t) => {
    const what = t.kind === 'dispatch' ? `dispatch_to ${t.agent}` : `run_worker ${t.agent}`;
    const outcome = t.status === 'running' ? 'no answer yet (interrupted)' : t.status === 'cancelled' ? 'cancelled' : `failed: ${t.result ?? ''}`;
    return `- ${t.taskId} ${what}: ${oneLine(t.task)} — ${outcome}`;
  });
  return ['Unfinished tasks from before (decide whether to run them again):', ...lines].join('\n');
}

function update(ledger: Ledger, taskId: string, patch: Partial<LedgerTask>): Ledger {
  return { tasks: ledger.tasks.map((t) => (t.taskId === taskId ? { ...t, ...patch } : t)) };
}

function shorten(text: string): string {
  return text.length > MAX_LEDGER_RESULT ? `${text.slice(0, MAX_LEDGER_RESULT - 1)}…` : text;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat;
}
