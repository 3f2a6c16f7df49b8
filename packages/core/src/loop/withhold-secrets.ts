import type { ToolCall } from '@tandem/ai';
import type { AnyTool } from '../tools/define.js';

/** What events, the conversation, the permission request and the audit log see instead of a secret argument. */
export const WITHHELD = '[secret: given to the tool only]';

/**
 * For a tool that declares `secretArgs`, moves their values out of the call into `vault`
 * (keyed by call id) and leaves the placeholder in the call the rest of the turn records.
 * `takeSecrets` gives them back to the tool when it runs.
 */
export function withholdSecrets(call: ToolCall, tools: ReadonlyMap<string, AnyTool>, vault: Map<string, Record<string, unknown>>): ToolCall {
  const names = tools.get(call.name)?.secretArgs;
  if (!names || names.length === 0 || typeof call.args !== 'object' || call.args === null || Array.isArray(call.args)) {
    // Arguments that are not valid JSON are dropped whole: they may hold the secret as text.
    if (names && names.length > 0 && call.args === undefined) return { ...call, rawArgs: WITHHELD };
    return call;
  }
  const args = { ...(call.args as Record<string, unknown>) };
  const kept: Record<string, unknown> = {};
  for (const name of names) {
    if (!(name in args)) continue;
    kept[name] = args[name];
    args[name] = WITHHELD;
  }
  if (Object.keys(kept).length === 0) return call;
  vault.set(call.id, kept);
  return { ...call, args, rawArgs: JSON.stringify(args) };
}

/** The tool's real arguments: the recorded ones with the withheld values put back (once). */
export function takeSecrets(callId: string, args: unknown, vault: Map<string, Record<string, unknown>> | undefined): unknown {
  const kept = vault?.get(callId);
  if (!kept) return args;
  vault!.delete(callId);
  return { ...(args as Record<string, unknown>), ...kept };
}
