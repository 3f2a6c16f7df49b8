import type { Danger } from '@tandem/shared';
import type { ToolCall } from '../messages.js';
import type { Clock } from '../ports/clock.js';
import type { ToolGate } from '../ports/tool-gate.js';
import { ToolError, dangerOf, type AnyTool, type ToolContext } from '../tools/define.js';
import { describeZodError, errorMessage, excerpt } from './argument-errors.js';

/** Everything a call needs from the turn, besides the call itself. */
export interface CallEnvironment {
  turnId: string;
  tools: ReadonlyMap<string, AnyTool>;
  gate: ToolGate;
  clock: Clock;
  toolTimeoutMs: number;
  /** The turn's signal: cancelling the turn aborts every running call. */
  signal: AbortSignal;
  /** Builds the tool context for one call (its callId, signal and output sink). */
  context(call: ToolCall, signal: AbortSignal): ToolContext;
}

export interface CallResult {
  output: string;
  isError: boolean;
  durationMs: number;
  /** Set when the gate refused and the turn must end after this result. */
  stopTurn?: 'permission_timeout' | 'loop_stopped';
  /** True when the turn was cancelled while this call ran; the result is not meaningful. */
  cancelled?: boolean;
}

/** The danger shown with a tool_call event; unknown tools and bad arguments count as safe (they never run). */
export function callDanger(tool: AnyTool | undefined, args: unknown): Danger {
  if (!tool) return 'safe';
  try {
    const parsed = tool.schema.safeParse(args);
    return parsed.success ? dangerOf(tool, parsed.data) : 'safe';
  } catch {
    return 'safe';
  }
}

/**
 * Runs one tool call (SPEC A4, A5): unknown tool, arguments that are not JSON or fail the
 * schema, a refusal by the gate, a timeout and anything the tool throws all become error
 * results. It never throws.
 */
export async function executeCall(call: ToolCall, env: CallEnvironment): Promise<CallResult> {
  const started = env.clock.now();
  const done = (output: string, isError: boolean, extra: Partial<CallResult> = {}): CallResult => ({
    output,
    isError,
    durationMs: Math.max(0, env.clock.now() - started),
    ...extra,
  });

  const tool = env.tools.get(call.name);
  if (!tool) {
    const names = [...env.tools.keys()].join(', ') || '(none)';
    return done(`Unknown tool "${call.name}". Available tools: ${names}.`, true);
  }
  if (call.args === undefined) {
    return done(
      `The arguments for ${call.name} are not valid JSON: ${excerpt(call.rawArgs)}. Send one JSON object that matches the tool's schema.`,
      true,
    );
  }
  const parsed = tool.schema.safeParse(call.args);
  if (!parsed.success) return done(`Invalid arguments for ${call.name}: ${describeZodError(parsed.error)}.`, true);

  const controller = new AbortController();
  const abortCall = () => controller.abort(env.signal.reason);
  if (env.signal.aborted) return done('Cancelled before it ran.', true, { cancelled: true });
  env.signal.addEventListener('abort', abortCall, { once: true });
  const timer = new AbortController();
  try {
    const verdict = await env.gate.check(
      { turnId: env.turnId, callId: call.id, tool: tool.name, args: parsed.data, danger: dangerOf(tool, parsed.data), readOnly: tool.readOnly },
      controller.signal,
    );
    if (env.signal.aborted) return done('Cancelled before it ran.', true, { cancelled: true });
    if (!verdict.allow) return done(verdict.reason, true, verdict.stopTurn ? { stopTurn: verdict.stopTurn } : {});

    const execution = tool
      .execute(parsed.data, env.context(call, controller.signal))
      .then((out) => (typeof out === 'string' ? { output: out, isError: false } : { output: out.output, isError: out.isError ?? false }))
      .catch((err: unknown) => ({
        output: err instanceof ToolError ? err.message : `Tool ${tool.name} failed: ${errorMessage(err)}`,
        isError: true,
      }));
    // A tool may ask for more than the default (run_command's own timeout_seconds), never less.
    const limitMs = Math.max(env.toolTimeoutMs, tool.timeoutMs?.(parsed.data) ?? 0);
    const timeout = env.clock.sleep(limitMs, timer.signal).then(
      () => 'timeout' as const,
      () => 'stopped' as const,
    );
    const cancelled = new Promise<'cancelled'>((resolve) => {
      if (controller.signal.aborted) resolve('cancelled');
      controller.signal.addEventListener('abort', () => resolve('cancelled'), { once: true });
    });
    const outcome = await Promise.race([execution, timeout, cancelled]);
    if (outcome === 'timeout') {
      controller.abort(new Error('tool timeout'));
      return done(`Tool ${tool.name} timed out after ${formatSeconds(limitMs)} and was stopped.`, true);
    }
    if (outcome === 'cancelled' || outcome === 'stopped') return done('Cancelled while running.', true, { cancelled: true });
    return done(outcome.output, outcome.isError);
  } catch (err) {
    // Only the gate can throw here (tool failures are caught above).
    if (env.signal.aborted) return done('Cancelled before it ran.', true, { cancelled: true });
    return done(`The permission check for ${tool.name} failed: ${errorMessage(err)}`, true);
  } finally {
    timer.abort();
    env.signal.removeEventListener('abort', abortCall);
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
