import { builtinTools } from '../builtin-tools.js';
import { describeCall } from '@tandem/core';
import type { PolicyCall } from '@tandem/coding-tools';

const BUILTIN = new Map(builtinTools().map((tool) => [tool.name, tool]));

/**
 * A call to a built-in tool as the gate receives it: with what the tool declares about itself
 * and these arguments (kind, subject, always-ask, preview). Arguments the schema refuses still
 * get the tool's kind, and its subject when it can read one from them.
 */
export function declared(call: PolicyCall): PolicyCall {
  const tool = BUILTIN.get(call.tool);
  if (!tool) return call;
  const parsed = tool.schema.safeParse(call.args);
  if (parsed.success) {
    const { summary: _summary, unknownWrites: _unknown, ...described } = describeCall(tool, parsed.data);
    return { ...call, ...described };
  }
  let subject: PolicyCall['subject'];
  try {
    subject = tool.subject?.(call.args as never);
  } catch {
    subject = undefined;
  }
  return { ...call, kind: tool.kind, ...(subject ? { subject } : {}), ...(tool.alwaysAsk ? { alwaysAsk: true } : {}) };
}
