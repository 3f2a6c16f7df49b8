import type { Danger } from '@tandem/shared';
import type { ToolCall, ToolImage } from '@tandem/ai';
import { type Clock, startTimer } from '@tandem/ai';
import type { ToolGate } from '../ports/tool-gate.js';
import { ToolError, dangerOf, type AnyTool, type PathResolver, type ToolContext } from '../tools/define.js';
import { errorMessage } from './argument-errors.js';
import { prepareCall, type CallOutcome, type PreparedCall } from './prepare-call.js';
import { takeSecrets } from './withhold-secrets.js';
import type { NestedInstructions } from '../prompt/nested-instructions.js';

/** Everything a call needs from the turn, besides the call itself. */
export interface CallEnvironment {
  turnId: string;
  tools: ReadonlyMap<string, AnyTool>;
  gate: ToolGate;
  clock: Clock;
  toolTimeoutMs: number;
  /** The turn's signal: cancelling the turn aborts every running call. */
  signal: AbortSignal;
  /** The session's path sandbox, checked before the gate for tools that declare their paths. */
  paths?: PathResolver;
  /** Builds the tool context for one call (its callId, signal and output sink). */
  context(call: ToolCall, signal: AbortSignal): ToolContext;
  /** Secret argument values withheld from the recorded call, by call id (see withhold-secrets). */
  withheld?: Map<string, Record<string, unknown>>;
  /** Nested AGENTS.md / CLAUDE.md files, given with the result of a call that touches their folder. */
  instructions?: NestedInstructions;
}

export interface CallResult {
  output: string;
  isError: boolean;
  durationMs: number;
  /** How the call ended (the audit record's `outcome`). */
  outcome: CallOutcome;
  /** Set when the gate refused and the turn must end after this result. */
  stopTurn?: 'permission_timeout' | 'loop_stopped';
  /** True when the turn was cancelled while this call ran; the result is not meaningful. */
  cancelled?: boolean;
  /** Images the tool returned beside its text. */
  images?: ToolImage[];
  /** The tool asked to end the turn after its result (an answer needs no more model calls). */
  endsTurn?: boolean;
  /** How the gate decided (absent: no gate saw the call — bad arguments, the path sandbox, the loop guard). */
  decision?: string;
  decidedBy?: string;
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
 * Runs one tool call (requirements A4, A5) in the pipeline's order: schema validation and the path
 * sandbox and the gate's screen (`prepareCall`, done before the call is announced), then the
 * gate's check (stored decisions, the question, the rate limiter), then the tool. Unknown tool,
 * bad arguments, a refusal, a timeout and anything the tool throws all become error results.
 * It never throws.
 */
export async function executeCall(call: ToolCall, env: CallEnvironment, prepared?: PreparedCall): Promise<CallResult> {
  const started = env.clock.now();
  const done = (output: string, isError: boolean, outcome: CallOutcome, extra: Partial<CallResult> = {}): CallResult => ({
    output,
    isError,
    durationMs: Math.max(0, env.clock.now() - started),
    outcome,
    ...extra,
  });
  const ready = prepared ?? (await prepareCall(call, env));
  if (ready.early) {
    const { output, outcome, decision, decidedBy } = ready.early;
    return done(output, true, outcome, { ...(decision !== undefined ? { decision } : {}), ...(decidedBy !== undefined ? { decidedBy } : {}) });
  }
  const { tool, gateCall } = ready;
  if (!tool || !gateCall) return done(`Tool ${call.name} could not be prepared.`, true, 'error');
  const args = gateCall.args;

  const controller = new AbortController();
  const abortCall = () => controller.abort(env.signal.reason);
  if (env.signal.aborted) return done('Cancelled before it ran.', true, 'cancelled', { cancelled: true });
  env.signal.addEventListener('abort', abortCall, { once: true });
  let stopTimer: (() => void) | undefined;
  try {
    const verdict = await env.gate.check(gateCall, controller.signal);
    const decided: Partial<CallResult> = {
      ...(verdict.decision !== undefined ? { decision: verdict.decision } : {}),
      ...(verdict.decidedBy !== undefined ? { decidedBy: verdict.decidedBy } : {}),
    };
    if (env.signal.aborted) return done('Cancelled before it ran.', true, 'cancelled', { cancelled: true, ...decided });
    if (!verdict.allow) {
      const outcome = verdict.outcome ?? (verdict.stopTurn === 'permission_timeout' ? 'timeout' : 'denied');
      return done(verdict.reason, true, outcome, { ...(verdict.stopTurn ? { stopTurn: verdict.stopTurn } : {}), ...decided });
    }

    const execution = tool
      .execute(takeSecrets(call.id, args, env.withheld), env.context(call, controller.signal))
      .then((out) =>
        typeof out === 'string'
          ? { output: out, isError: false }
          : {
              output: out.output,
              isError: out.isError ?? false,
              ...(out.images?.length ? { images: out.images } : {}),
              ...(out.endsTurn ? { endsTurn: true } : {}),
            },
      )
      .catch((err: unknown) => ({
        output: err instanceof ToolError ? err.message : `Tool ${tool.name} failed: ${errorMessage(err)}`,
        isError: true,
      }));
    // A tool may ask for more than the default (run_command's own timeout_seconds), never less.
    const limitMs = Math.max(env.toolTimeoutMs, tool.timeoutMs?.(args) ?? 0);
    const timeout = new Promise<'timeout'>((resolve) => {
      stopTimer = startTimer(env.clock, limitMs, () => resolve('timeout'));
    });
    const cancelled = new Promise<'cancelled'>((resolve) => {
      if (controller.signal.aborted) resolve('cancelled');
      controller.signal.addEventListener('abort', () => resolve('cancelled'), { once: true });
    });
    const outcome = await Promise.race([execution, timeout, cancelled]);
    if (outcome === 'timeout') {
      controller.abort(new Error('tool timeout'));
      return done(`Tool ${tool.name} timed out after ${formatSeconds(limitMs)} and was stopped.`, true, 'timeout', decided);
    }
    if (outcome === 'cancelled') return done('Cancelled while running.', true, 'cancelled', { cancelled: true, ...decided });
    const extra: Partial<CallResult> = {
      ...decided,
      ...('images' in outcome ? { images: outcome.images } : {}),
      ...('endsTurn' in outcome && !outcome.isError ? { endsTurn: true } : {}),
    };
    return done(outcome.output, outcome.isError, outcome.isError ? 'error' : 'ok', extra);
  } catch (err) {
    // Only the gate can throw here (tool failures are caught above).
    if (env.signal.aborted) return done('Cancelled before it ran.', true, 'cancelled', { cancelled: true });
    return done(`The permission check for ${tool.name} failed: ${errorMessage(err)}`, true, 'error', { decision: 'error', decidedBy: 'system' });
  } finally {
    stopTimer?.();
    env.signal.removeEventListener('abort', abortCall);
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
