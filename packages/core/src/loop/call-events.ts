import type { ToolCall } from '@tandem/ai';
import { imagesForEvent } from '@tandem/ai';
import { summaryOf, type AnyTool } from '../tools/define.js';
import { callDanger, type CallResult } from './execute-call.js';
import type { PreparedCall } from './prepare-call.js';
import type { EngineEvent } from './types.js';

/** No gate saw the call: bad arguments, the path sandbox, the loop guard, a call skipped after a stop, or no gate. */
const NOT_CHECKED = 'not_checked';

/**
 * A call's `tool_call`, as a model's call and a host's call (a bridge call, a package install)
 * both announce it: what its tool declares (kind, summary, file arguments) and, when the screen
 * let it through without asking, how that was decided.
 */
export function toolCallEvent(
  call: ToolCall,
  tool: AnyTool | undefined,
  at: { turnId: string; iteration: number },
  prepared?: Pick<PreparedCall, 'announce' | 'gateCall'>,
): Extract<EngineEvent, { type: 'tool_call' }> {
  const shown = prepared?.announce;
  return {
    type: 'tool_call',
    turnId: at.turnId,
    iteration: at.iteration,
    callId: call.id,
    tool: call.name,
    args: call.args,
    danger: shown?.danger ?? callDanger(tool, call.args),
    ...(call.args === undefined ? { rawArgs: call.rawArgs } : {}),
    ...(shown?.reason ? { reason: shown.reason } : {}),
    ...(shown?.decision !== undefined ? { decision: shown.decision, decidedBy: shown.decidedBy ?? 'system' } : {}),
    ...(tool ? { kind: tool.kind } : {}),
    ...(tool?.file ? { file: tool.file } : {}),
    summary: prepared?.gateCall?.summary ?? summaryOf(tool, call.args),
  };
}

/** A call's `tool_result`: how it ended and the gate's decision (the audit record is a fold over these events). */
export function toolResultEvent(
  call: ToolCall,
  turnId: string,
  result: Pick<CallResult, 'output' | 'isError' | 'durationMs' | 'outcome' | 'images' | 'decision' | 'decidedBy'>,
): Extract<EngineEvent, { type: 'tool_result' }> {
  return {
    type: 'tool_result',
    turnId,
    callId: call.id,
    tool: call.name,
    isError: result.isError,
    output: result.output,
    durationMs: result.durationMs,
    outcome: result.outcome,
    decision: result.decision ?? NOT_CHECKED,
    ...(result.decidedBy !== undefined ? { decidedBy: result.decidedBy } : {}),
    // The event (the log, every client) carries what the image is and where it is kept, never its bytes.
    ...(result.images ? { images: imagesForEvent(result.images) } : {}),
  };
}
