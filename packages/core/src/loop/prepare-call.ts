import type { Danger } from '@tandem/shared';
import type { ToolCall } from '@tandem/ai';
import type { GateCall, GateScreen, RefusalOutcome } from '../ports/tool-gate.js';
import { SandboxError } from '../base/sandbox-error.js';
import { dangerOf, describeCall, type AnyTool, type PathResolver } from '../tools/define.js';
import { describeZodError, errorMessage, excerpt } from './argument-errors.js';

/** How a call ended (AuditRecord.outcome, tool_result.outcome). */
export type CallOutcome = 'ok' | 'error' | RefusalOutcome;

/** A call that ends before it is asked about or run: its result text, how it ended, and the gate's decision if it made one. */
export interface EarlyEnd {
  output: string;
  outcome: CallOutcome;
  decision?: string;
  decidedBy?: string;
}

/**
 * A call after the steps that need no person (ARCHITECTURE "One turn, end to end"): schema
 * validation, the path sandbox, then the gate's screen (blacklist, approval mode, read-only
 * commands). `announce` is what its `tool_call` event shows; `early` ends the call there.
 */
export interface PreparedCall {
  tool?: AnyTool;
  args?: unknown;
  gateCall?: GateCall;
  announce: { danger: Danger; reason?: string; decision?: string; decidedBy?: string };
  early?: EarlyEnd;
}

export interface PrepareEnvironment {
  turnId: string;
  tools: ReadonlyMap<string, AnyTool>;
  gate: { screen?(call: GateCall): Promise<GateScreen> };
  /** The session's path sandbox; without it the tools' own checks are the only ones. */
  paths?: PathResolver;
}

/** Never throws: every problem becomes an early end the model can read. */
export async function prepareCall(call: ToolCall, env: PrepareEnvironment): Promise<PreparedCall> {
  const tool = env.tools.get(call.name);
  const refuse = (output: string, outcome: CallOutcome, danger: Danger = 'safe'): PreparedCall => ({
    ...(tool ? { tool } : {}),
    announce: { danger, ...(outcome === 'refused' || outcome === 'blocked' ? { reason: output } : {}) },
    early: { output, outcome },
  });
  if (!tool) {
    const names = [...env.tools.keys()].join(', ') || '(none)';
    return refuse(`Unknown tool "${call.name}". Available tools: ${names}.`, 'error');
  }
  if (call.args === undefined) {
    return refuse(`The arguments for ${call.name} are not valid JSON: ${excerpt(call.rawArgs)}. Send one JSON object that matches the tool's schema.`, 'error');
  }
  const parsed = safeParse(tool, call.args);
  if (!parsed.ok) return refuse(`Invalid arguments for ${call.name}: ${parsed.error}.`, 'error');
  const args = parsed.data;
  let danger: Danger;
  try {
    danger = dangerOf(tool, args);
  } catch (err) {
    return refuse(`Tool ${tool.name} could not judge its arguments: ${errorMessage(err)}`, 'error');
  }

  const checked = await sandboxPaths(tool, args, env.paths);
  if (checked.refusal) return refuse(`Refused by the path sandbox: ${checked.refusal} Nothing was asked or run.`, 'refused', danger);

  let described: ReturnType<typeof describeCall>;
  try {
    described = describeCall(tool, args);
  } catch (err) {
    return refuse(`Tool ${tool.name} could not say what this call is about: ${errorMessage(err)}; it was not run.`, 'error', danger);
  }
  const gateCall: GateCall = { turnId: env.turnId, callId: call.id, tool: tool.name, args, danger, readOnly: tool.readOnly, ...described };
  if (checked.paths) gateCall.paths = checked.paths;
  const base = { tool, args, gateCall };
  if (!env.gate.screen) return { ...base, announce: { danger } };
  try {
    const screen = await env.gate.screen(gateCall);
    const announce = {
      danger: screen.danger,
      ...(screen.reason ? { reason: screen.reason } : {}),
      ...(screen.allowed ? { decision: screen.allowed.decision, decidedBy: screen.allowed.decidedBy } : {}),
    };
    if (screen.refusal) {
      const { reason, outcome, decision, decidedBy } = screen.refusal;
      return {
        ...base,
        announce: { danger: screen.danger, reason },
        early: { output: reason, outcome, ...(decision !== undefined ? { decision } : {}), ...(decidedBy !== undefined ? { decidedBy } : {}) },
      };
    }
    // The screen's decision goes back to the gate's check with the call.
    return { ...base, gateCall: { ...gateCall, screened: screen }, announce };
  } catch (err) {
    return {
      ...base,
      announce: { danger },
      early: {
        output: `The permission check for ${tool.name} failed: ${errorMessage(err)}; the call was not run.`,
        outcome: 'error',
        decision: 'error',
        decidedBy: 'system',
      },
    };
  }
}

function safeParse(tool: AnyTool, args: unknown): { ok: true; data: unknown } | { ok: false; error: string } {
  try {
    const parsed = tool.schema.safeParse(args);
    return parsed.success ? { ok: true, data: parsed.data } : { ok: false, error: describeZodError(parsed.error) };
  } catch (err) {
    return { ok: false, error: errorMessage(err) };
  }
}

/**
 * Resolves every path the call declares with the sandbox. A `SandboxError` refuses the call;
 * any other failure (a missing file…) is left for the tool to report when it runs.
 */
async function sandboxPaths(tool: AnyTool, args: unknown, resolver: PathResolver | undefined): Promise<{ refusal?: string; paths?: string[] }> {
  if (!tool.paths || !resolver) return {};
  let uses;
  try {
    uses = tool.paths(args);
  } catch {
    return {};
  }
  const resolved: string[] = [];
  for (const use of uses) {
    try {
      if (use.outside) {
        if (!resolver.resolveOutsideWorkspace)
          return { refusal: `${tool.name} needs a sandbox that can check paths outside the workspace; this host has none.` };
        resolved.push(await resolver.resolveOutsideWorkspace(use.path, use.intent));
      } else {
        resolved.push(await resolver.resolve(use.path, use.intent));
      }
    } catch (err) {
      if (err instanceof SandboxError) return { refusal: err.message };
      return {};
    }
  }
  return { paths: resolved };
}
