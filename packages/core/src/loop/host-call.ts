import type { ToolCall } from '@tandem/ai';
import { systemClock } from '@tandem/ai';
import { allowAllGate } from '../ports/tool-gate.js';
import type { AnyTool, ToolContext } from '../tools/define.js';
import { executeCall, type CallEnvironment, type CallResult } from './execute-call.js';
import { prepareCall } from './prepare-call.js';
import { toolCallEvent, toolResultEvent } from './call-events.js';
import { DEFAULT_LIMITS, type EngineEvent, type TurnEnvironment } from './types.js';

/** One tool call a host makes itself, not a model: a package's dependency install, an external agent's run, a bridge call. */
export interface HostCall {
  /** The turn it belongs to (its events carry this id). */
  turnId: string;
  call: { id: string; name: string; args: unknown };
  /** The tools it may name (only these; never offered to a model). */
  tools: readonly AnyTool[];
  /** The session's environment: gate, path sandbox, runner, services, clock, limits. */
  environment: TurnEnvironment;
  signal: AbortSignal;
  emit(event: EngineEvent): void;
  /** Where the call's streamed output goes (default: `command_output` events). */
  onOutput?(data: string): void;
  /** Added to its `tool_call` and `tool_result` (the agent that made it, its task). */
  tag?: { agent?: string; taskId?: string };
  /** Resolves once the host has handled the events emitted so far (the call is logged before its question). */
  settled?(): Promise<void>;
  /** The `iteration` its events show (default 1). */
  iteration?: number;
}

/**
 * Runs one call through the same pipeline as a model's (ARCHITECTURE "One turn, end to end"):
 * schema validation → path sandbox → the gate's screen (blacklist, approval mode) → `tool_call`
 * → the gate's check (stored decisions, the question, the rate limiter) → the tool → `tool_result`.
 * The events are the ones a model's call produces, so the audit records it and every client
 * sees it. There is no second way around the gate: this is the gate. Never throws.
 */
export async function runHostCall(host: HostCall): Promise<CallResult> {
  const { environment } = host;
  const tools = new Map(host.tools.map((t) => [t.name, t]));
  const iteration = host.iteration ?? 1;
  const tag = host.tag ?? {};
  const call: ToolCall = { id: host.call.id, name: host.call.name, args: host.call.args, rawArgs: JSON.stringify(host.call.args ?? null) };
  const env: CallEnvironment = {
    turnId: host.turnId,
    tools,
    gate: environment.gate ?? allowAllGate,
    clock: environment.clock ?? systemClock,
    toolTimeoutMs: environment.limits?.toolTimeoutMs ?? DEFAULT_LIMITS.toolTimeoutMs,
    signal: host.signal,
    paths: environment.paths,
    context: (c, signal): ToolContext => ({
      sessionId: environment.sessionId,
      callId: c.id,
      cwd: environment.cwd,
      signal,
      onOutput: host.onOutput ?? ((data: string) => host.emit({ type: 'command_output', callId: c.id, data, ...tag })),
      runner: environment.runner,
      paths: environment.paths,
      baselines: environment.baselines,
      services: environment.services ?? {},
    }),
  };
  const prepared = await prepareCall(call, env);
  host.emit({ ...toolCallEvent(call, tools.get(call.name), { turnId: host.turnId, iteration }, prepared), ...tag });
  await host.settled?.();
  const result = await executeCall(call, env, prepared);
  host.emit({ ...toolResultEvent(call, host.turnId, result), ...tag });
  return result;
}
