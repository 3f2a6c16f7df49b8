import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '@tandem/ai';
import { type AnyTool, defineTool, type ToolOutcome } from '../tools/define.js';
import { AGENT_NAME, type AgentDefinition, COMMANDER } from './agent-file.js';
import type { AgentRunner, AgentRunRequest } from './agent-runner.js';
import { DEFAULT_MAX_AGENT_DEPTH, DISPATCH_TO, HAND_OFF_TO, mayOrchestrate, RUN_WORKER } from './agent-tools.js';
import { createLimiter, type Limiter, LimiterAbortError } from './concurrency-limit.js';
import { type Ledger, recordCancelled, recordDispatched, recordReturned } from './ledger.js';
import { capSummary, oneLine } from '@tandem/shared';

/** How long one dispatched agent or worker may run by default (the loop's per-tool limit is far shorter). */
export const DEFAULT_AGENT_TIME_LIMIT_MS = 30 * 60_000;

/** Where the session keeps the commander's ledger (it persists it). */
export interface LedgerStore {
  get(): Ledger;
  set(ledger: Ledger): void;
}

export interface OrchestrationOptions {
  runner: AgentRunner;
  /** The usable definitions now (e.g. `() => registry.current().agents`). */
  agents(): readonly AgentDefinition[];
  /** The agent these tools belong to (default `commander`) and its depth (commander 0). */
  self?: string;
  depth?: number;
  /** Agents at this depth or deeper cannot start others (default 1: workers cannot dispatch). */
  maxDepth?: number;
  /** Shared by every orchestration tool of the session (default: a new limiter of 4). */
  limiter?: Limiter;
  ledger?: LedgerStore;
  clock?: Pick<Clock, 'now'>;
  /** Time limit of one agent run, in ms (default 30 minutes); the call's signal aborts after it. */
  timeLimitMs?: number;
  /** A new task id (default `task-` + 8 random hex digits). */
  newTaskId?(): string;
  /** A name for the next anonymous worker (default `worker-1`, `worker-2`, …). */
  workerName?(): string;
}

const DispatchArgs = z.object({
  agent: z.string().min(1).describe('the name of a defined agent (see the agents list in your instructions)'),
  task: z.string().min(1).describe('everything the agent needs to know: it sees only this task, not the conversation'),
});
const WorkerArgs = z.object({
  task: z.string().min(1).describe('the subtask, self-contained: the worker sees only this, not the conversation'),
  name: z.string().regex(AGENT_NAME, 'a-z, 0-9 and - only').optional().describe('a short name shows the worker in the transcript; without one it runs hidden'),
});
const HandOffArgs = z.object({
  agent: z.string().min(1).describe('an agent marked (interactive) in the agents list'),
  message: z.string().optional().describe('what to tell the agent as it takes over (optional)'),
});

/**
 * The commander's three orchestration tools (SPEC G2), pure over the `AgentRunner` port:
 * `dispatch_to` and `run_worker` run an agent to completion through the shared limiter and
 * return its final answer (a failed run is an error result; the commander's turn goes on);
 * `hand_off_to` gives the floor to an interactive agent. They are `readOnly` so the loop runs
 * neighbouring calls of one reply in one concurrent batch, results in declared order; each
 * worker's own tool calls pass the session's gate as usual. The loop must end the commander's
 * turn after a `hand_off_to` that succeeded: its outcome says `endsTurn`.
 */
export function createOrchestrationTools(options: OrchestrationOptions): AnyTool[] {
  const self = options.self ?? COMMANDER;
  const depth = options.depth ?? 0;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_AGENT_DEPTH;
  const limiter = options.limiter ?? createLimiter();
  const now = () => (options.clock ?? Date).now();
  const timeLimitMs = options.timeLimitMs ?? DEFAULT_AGENT_TIME_LIMIT_MS;
  const newTaskId = options.newTaskId ?? (() => `task-${randomUUID().slice(0, 8)}`);
  let workers = 0;
  const workerName = options.workerName ?? (() => `worker-${++workers}`);
  const depthRefusal = (): ToolOutcome | undefined =>
    mayOrchestrate(depth, maxDepth)
      ? undefined
      : { isError: true, output: `${self} cannot start other agents: the depth limit is ${maxDepth} (only agents above it may dispatch)` };

  const run = async (request: Omit<AgentRunRequest, 'taskId' | 'parent' | 'depth' | 'signal'>, signal: AbortSignal): Promise<ToolOutcome> => {
    const taskId = newTaskId();
    const ledger = options.ledger;
    ledger?.set(recordDispatched(ledger.get(), { taskId, agent: request.agent, kind: request.kind, task: request.task, at: now() }));
    const outcome = await limiter
      .run(async () => {
        try {
          return await options.runner.runAgent({ ...request, taskId, parent: self, depth: depth + 1, signal });
        } catch (err) {
          return { error: err instanceof Error ? err.message : String(err) };
        }
      }, signal)
      .catch((err: unknown) => ({ error: err instanceof LimiterAbortError ? 'cancelled before it started' : String(err) }));
    if (signal.aborted) {
      ledger?.set(recordCancelled(ledger.get(), now(), [taskId]));
      return { isError: true, output: `${request.agent} (${taskId}) was stopped` };
    }
    if ('answer' in outcome) {
      ledger?.set(recordReturned(ledger.get(), { taskId, isError: false, result: outcome.answer, at: now() }));
      return { output: outcome.answer };
    }
    const output = `${request.agent} (${taskId}) failed: ${outcome.error}`;
    ledger?.set(recordReturned(ledger.get(), { taskId, isError: true, result: outcome.error, at: now() }));
    return { isError: true, output };
  };

  const dispatchTo = defineTool({
    name: DISPATCH_TO,
    description:
      'Give a task to one of the defined agents; it works on its own (seeing only the task) and its final answer comes back as the result. Several dispatch_to calls in one reply run in parallel, results in the order written.',
    schema: DispatchArgs,
    danger: 'safe',
    readOnly: true,
    kind: 'delegate',
    summary: (args) => capSummary(oneLine(`${args.agent}: ${args.task}`)),
    timeoutMs: () => timeLimitMs,
    async execute(args, ctx) {
      const refused = depthRefusal();
      if (refused) return refused;
      const definition = options.agents().find((a) => a.name === args.agent);
      if (!definition) return { isError: true, output: unknownAgent(args.agent, options.agents()) };
      return run({ agent: definition.name, definition, kind: 'dispatch', task: args.task, visible: true }, ctx.signal);
    },
  });

  const runWorker = defineTool({
    name: RUN_WORKER,
    description:
      'Run a subtask as a worker with your own tools (not these orchestration tools); its final answer comes back as the result. Without a name it runs hidden from the transcript; with one it is shown.',
    schema: WorkerArgs,
    danger: 'safe',
    readOnly: true,
    kind: 'delegate',
    summary: (args) => capSummary(oneLine(args.name ? `${args.name}: ${args.task}` : args.task)),
    timeoutMs: () => timeLimitMs,
    async execute(args, ctx) {
      const refused = depthRefusal();
      if (refused) return refused;
      if (args.name && (args.name === COMMANDER || /^worker-\d+$/.test(args.name) || options.agents().some((a) => a.name === args.name)))
        return { isError: true, output: `the worker name "${args.name}" is taken (an agent, commander or worker-N): choose another or leave it out` };
      const agent = args.name ?? workerName();
      return run({ agent, kind: 'worker', task: args.task, visible: args.name !== undefined }, ctx.signal);
    },
  });

  const handOffTo = defineTool({
    name: HAND_OFF_TO,
    description:
      'Hand the conversation to an interactive agent: it answers the user directly until it hands back or the user writes @commander. Your turn ends with this call; write nothing after it.',
    schema: HandOffArgs,
    danger: 'safe',
    readOnly: false,
    kind: 'handoff',
    summary: (args) => capSummary(oneLine(args.message ? `${args.agent}: ${args.message}` : args.agent)),
    async execute(args) {
      const refused = depthRefusal();
      if (refused) return refused;
      const definition = options.agents().find((a) => a.name === args.agent);
      if (!definition) return { isError: true, output: `${unknownAgent(args.agent, options.agents())}; the floor stays with ${self}` };
      if (!definition.interactive)
        return {
          isError: true,
          output: `${definition.name} is not interactive (its definition lacks interactive: true), so it cannot take the floor; the floor stays with ${self}. Use dispatch_to for a task.`,
        };
      await options.runner.handOff({ agent: definition.name, ...(args.message ? { message: args.message } : {}), by: self });
      return { output: `${definition.name} has the floor now; it answers the user until it hands back.`, endsTurn: true };
    },
  });

  return [dispatchTo, runWorker, handOffTo];
}

function unknownAgent(name: string, agents: readonly AgentDefinition[]): string {
  const known = agents.map((a) => a.name);
  return known.length === 0
    ? `no agent is called "${name}" and none is defined (add .tandem/agents/NAME.md); run_worker needs no definition`
    : `no agent is called "${name}": the defined agents are ${known.join(', ')}`;
}
