import type { Message, ToolCall } from '@tandem/ai';
import type { EngineEvent } from './types.js';
import { executeCall, type CallEnvironment, type CallResult } from './execute-call.js';
import { prepareCall, type CallOutcome, type PreparedCall } from './prepare-call.js';
import { LOOP_WARN_AT, type LoopDetector, type LoopVerdict } from './loop-detector.js';
import { planBatches } from './parallel-batches.js';
import { NOT_RUN_OUTPUT, type TurnEnd } from './turn-end.js';
import type { ModelUsage } from '@tandem/ai';
import { toolCallEvent, toolResultEvent } from './call-events.js';

export interface CallsContext {
  turnId: string;
  iteration: number;
  env: CallEnvironment;
  detector: LoopDetector;
  conversation: Message[];
  emit(event: EngineEvent): void;
  /** Resolves once the consumer has handled every event emitted so far (so a call is logged before its question). */
  settled?: () => Promise<void>;
  /** What the model request whose reply asked for these calls used; the first call's tool_call carries it (the audit keeps it). */
  usage?: ModelUsage;
}

interface Planned {
  call: ToolCall;
  verdict: LoopVerdict;
}

/**
 * Runs one reply's tool calls (requirements A3, A7, A10): read-only neighbours concurrently, the rest
 * one at a time, results emitted and appended in declared order. Returns how the turn ends
 * when a call stopped it, or undefined to go on.
 */
export async function runToolCalls(calls: readonly ToolCall[], ctx: CallsContext): Promise<TurnEnd | undefined> {
  const planned: Planned[] = calls.map((call) => ({ call, verdict: ctx.detector.observe(call) }));
  const first = calls[0]?.id;
  const stopAt = planned.findIndex((p) => p.verdict.action === 'stop');
  const runnable = stopAt === -1 ? planned : planned.slice(0, stopAt);
  const batches = planBatches(runnable, (p) => ctx.env.tools.get(p.call.name)?.readOnly === true);

  let done = 0;
  for (const batch of batches) {
    // Validation, the path sandbox and the gate's screen come before the call is announced, so
    // its tool_call says why it runs without asking (or why it is refused) and no question is
    // ever raised for a call that would be refused anyway.
    const prepared = await Promise.all(batch.map((p) => prepareCall(p.call, ctx.env)));
    batch.forEach((p, i) => announce(p, prepared[i] as PreparedCall, ctx, p.call.id === first));
    // The tool_call is recorded before the gate may emit a permission_request about it.
    await ctx.settled?.();
    const results = await Promise.all(batch.map((p, i) => executeCall(p.call, ctx.env, prepared[i])));
    if (ctx.env.signal.aborted || results.some((r) => r.cancelled)) return { kind: 'cancelled' };
    let stop: TurnEnd | undefined;
    batch.forEach((p, i) => {
      const result = results[i] as CallResult;
      const nudged = p.verdict.action === 'warn' ? `${result.output}\n\n${p.verdict.nudge}` : result.output;
      const instructions = result.isError ? '' : nestedInstructions(p.call, ctx);
      const output = instructions ? `${nudged}\n\n${instructions}` : nudged;
      record(p.call, { ...result, output }, ctx);
      if (result.stopTurn && !stop) {
        stop = { kind: 'error', outcome: result.stopTurn, code: result.stopTurn, message: result.output };
      } else if (result.endsTurn && !stop) {
        stop = { kind: 'answered' };
      }
    });
    done += batch.length;
    if (stop) {
      skipRest(planned.slice(done), ctx);
      return stop;
    }
  }
  if (stopAt === -1) return undefined;

  const stopped = planned[stopAt] as Planned;
  const verdict = stopped.verdict as Extract<LoopVerdict, { action: 'stop' }>;
  emitCall(stopped.call, ctx, undefined, stopped.call.id === first);
  ctx.emit({ type: 'loop_warning', tool: stopped.call.name, count: verdict.count, stopped: true });
  record(stopped.call, { output: verdict.reason, isError: true, durationMs: 0, outcome: 'refused' }, ctx);
  skipRest(planned.slice(stopAt + 1), ctx);
  return {
    kind: 'error',
    outcome: 'loop_stopped',
    code: 'loop_stopped',
    message: `Stopped: ${stopped.call.name} was called ${verdict.count} times in a row with the same arguments.`,
  };
}

function announce(p: Planned, prepared: PreparedCall, ctx: CallsContext, first: boolean): void {
  emitCall(p.call, ctx, prepared, first);
  if (p.verdict.action === 'warn' && p.verdict.count === LOOP_WARN_AT)
    ctx.emit({ type: 'loop_warning', tool: p.call.name, count: p.verdict.count, stopped: false });
}

/** A call's tool_call; the reply's first call carries the usage of the request that asked for the calls (`first`). */
function emitCall(call: ToolCall, ctx: CallsContext, prepared?: PreparedCall, first = false): void {
  const event = toolCallEvent(call, ctx.env.tools.get(call.name), ctx, prepared);
  ctx.emit(first && ctx.usage ? { ...event, usage: ctx.usage } : event);
}

function record(
  call: ToolCall,
  result: Pick<CallResult, 'output' | 'isError' | 'durationMs' | 'outcome' | 'images' | 'decision' | 'decidedBy'>,
  ctx: CallsContext,
): void {
  const images = result.images;
  ctx.emit(toolResultEvent(call, ctx.turnId, result));
  ctx.conversation.push({ role: 'tool', callId: call.id, name: call.name, output: result.output, isError: result.isError, ...(images ? { images } : {}) });
}

/** The nested AGENTS.md / CLAUDE.md texts that apply to the paths this call touched and the conversation lacks. */
function nestedInstructions(call: ToolCall, ctx: CallsContext): string {
  const tool = ctx.env.tools.get(call.name);
  if (!ctx.env.instructions || !tool?.paths) return '';
  const parsed = tool.schema.safeParse(call.args);
  if (!parsed.success) return '';
  const paths = tool
    .paths(parsed.data)
    .filter((use) => !use.outside)
    .map((use) => use.path);
  return ctx.env.instructions.forPaths(paths, ctx.conversation);
}

/** A call skipped because the turn stopped never ran: the audit counts it as cancelled. */
const NOT_RUN: CallOutcome = 'cancelled';

/** Calls after a stop still get a result, so the conversation stays valid for the provider. */
function skipRest(rest: readonly Planned[], ctx: CallsContext): void {
  for (const p of rest) {
    emitCall(p.call, ctx);
    record(p.call, { output: NOT_RUN_OUTPUT, isError: true, durationMs: 0, outcome: NOT_RUN }, ctx);
  }
}
