import type { AgentRunRequest, AgentRunResult, EngineEvent, TurnOptions } from '@tandem/core';
import type { Usage } from '@tandem/shared';

/** What one agent run needs from its session. */
export interface AgentRunHost {
  /** Stamps an event (already tagged with the agent and task) into the session's pipeline. */
  emit(event: EngineEvent): void;
  /** The options of the run's turn: its own slice (the task alone), its prompt, tools and model. */
  options(request: AgentRunRequest): Promise<TurnOptions>;
  runTurn(options: TurnOptions): AsyncIterable<EngineEvent>;
  /** The turn of the parent that dispatched it (on `agent_started`), if known. */
  parentTurnId?: string | undefined;
}

/**
 * Runs one dispatched agent or worker to completion (SPEC G2, ARCHITECTURE.md "Agents"): an
 * `agent_started`, the run's own turn with every event tagged with its `agent` and `taskId`, and
 * an `agent_done` with its final answer (or what went wrong), which is also what its parent
 * receives. A provider error, a limit or a failure to start is the run's error result, never
 * the parent's turn ending. Stopping is the request's signal (the session's one stop path).
 */
export async function runAgent(request: AgentRunRequest, host: AgentRunHost): Promise<AgentRunResult> {
  const tag = { agent: request.agent, taskId: request.taskId };
  host.emit({
    type: 'agent_started',
    ...tag,
    parent: request.parent,
    task: request.task,
    visible: request.visible,
    ...(host.parentTurnId ? { turnId: host.parentTurnId } : {}),
  });
  let answer = '';
  let error: string | undefined;
  let iterations = 0;
  let usage: Usage | undefined;
  let ended: 'answered' | 'cancelled' | 'failed' | undefined;
  try {
    const options = await host.options(request);
    for await (const event of host.runTurn(options)) {
      if (event.type === 'assistant_text') answer = event.text;
      else if (event.type === 'agent_error') error = event.message;
      else if (event.type === 'turn_cancelled') ended = 'cancelled';
      else if (event.type === 'turn_done') {
        iterations = event.iterations;
        usage = event.usage;
        ended = event.outcome === undefined || event.outcome === 'answered' ? 'answered' : 'failed';
        error ??= ended === 'failed' ? `stopped early (${event.outcome})` : undefined;
      }
      host.emit({ ...event, ...tag });
    }
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
    ended = 'failed';
  }
  if (request.signal.aborted || ended === 'cancelled') {
    return done(host, tag, { error: 'stopped: the session was cancelled' }, iterations, usage);
  }
  if (ended === 'answered' && error === undefined) return done(host, tag, { answer }, iterations, usage);
  return done(host, tag, { error: error ?? 'the run ended without an answer' }, iterations, usage);
}

function done(
  host: AgentRunHost,
  tag: { agent: string; taskId: string },
  result: AgentRunResult,
  iterations: number,
  usage: Usage | undefined,
): AgentRunResult {
  const isError = 'error' in result;
  host.emit({
    type: 'agent_done',
    ...tag,
    isError,
    result: isError ? result.error : result.answer,
    iterations,
    ...(usage ? { usage } : {}),
  });
  return result;
}
