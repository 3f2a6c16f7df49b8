import { builtinTools } from '@tandem/tools';
import { describeCall, type GateCall } from '@tandem/core';

const BUILTIN = new Map(builtinTools().map((tool) => [tool.name, tool]));

/**
 * What a built-in tool declares about a call with these arguments (kind, subject, always-ask,
 * summary, preview), as the engine hands it to the gate; nothing for a name that is no built-in.
 */
export function declaredOf(tool: string, args: unknown): Partial<GateCall> {
  const definition = BUILTIN.get(tool);
  if (!definition) return {};
  const parsed = definition.schema.safeParse(args);
  return parsed.success ? describeCall(definition, parsed.data) : { kind: definition.kind };
}
