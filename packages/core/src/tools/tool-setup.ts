import type { NotSetUp } from '../prompt/system-prompt.js';
import type { AnyTool, ToolServices } from './define.js';

/** Whether the model is offered `tool` in a session with these services (see `ToolDefinition.setup`). */
export function isOffered(tool: AnyTool, services: ToolServices): boolean {
  return tool.setup?.(services) === undefined;
}

/** The tools that wait for setting up, in their order, grouped by how (the whatsapp_* tools share one clause). */
export function notSetUp(tools: readonly AnyTool[], services: ToolServices): NotSetUp[] {
  const byHow = new Map<string, string[]>();
  for (const tool of tools) {
    const how = tool.setup?.(services);
    if (how === undefined) continue;
    const names = byHow.get(how);
    if (names) names.push(tool.name);
    else byHow.set(how, [tool.name]);
  }
  return [...byHow].map(([how, names]) => ({ names, how }));
}
