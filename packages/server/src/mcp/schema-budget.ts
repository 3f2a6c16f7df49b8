import { z } from 'zod';
import { defineTool, estimateTextTokens, toToolSpec, ToolError, type AnyTool, type DynamicTools } from '@tandem/core';

/** Share of the context window MCP tool schemas may take before they are loaded on demand. */
export const MCP_SCHEMA_SHARE = 0.1;
const LISTED_DESCRIPTION = 120;

/**
 * Keeps MCP tool schemas within a budget of the context window: when all of them would take
 * more than `budgetTokens`, the model gets the names and short descriptions in one notice, plus
 * `search_tools` and `load_tool`; a loaded tool (per session) is sent with its full schema from
 * the next request on. Under the budget, every tool is sent as is.
 */
export class SchemaBudget {
  private readonly loaded = new Map<string, Set<string>>();
  private readonly tokens = new WeakMap<AnyTool, number>();

  constructor(private readonly budgetTokens: (sessionId: string) => number) {}

  apply(sessionId: string, all: DynamicTools): DynamicTools {
    const total = all.tools.reduce((sum, t) => sum + this.cost(t), 0);
    if (total <= this.budgetTokens(sessionId)) return all;
    const loaded = this.loaded.get(sessionId) ?? new Set<string>();
    this.loaded.set(sessionId, loaded);
    const byName = new Map(all.tools.map((t) => [t.name, t]));
    const listing = all.tools
      .filter((t) => !loaded.has(t.name))
      .map((t) => `- ${t.name}: ${short(t.description)}`)
      .join('\n');
    const notice = `MCP tools are many, so their schemas are loaded on demand: call load_tool with a name below before calling that tool (search_tools finds tools by words).\n${listing}`;
    return {
      tools: [...all.tools.filter((t) => loaded.has(t.name)), searchTool(byName), loadTool(byName, loaded)],
      notices: [...all.notices, notice],
    };
  }

  private cost(tool: AnyTool): number {
    let n = this.tokens.get(tool);
    if (n === undefined) {
      n = estimateTextTokens(JSON.stringify(toToolSpec(tool)));
      this.tokens.set(tool, n);
    }
    return n;
  }
}

function searchTool(byName: ReadonlyMap<string, AnyTool>): AnyTool {
  return defineTool({
    name: 'search_tools',
    description:
      'Finds MCP tools whose name or description contains the words of `query`; returns names and descriptions. Load one with load_tool before calling it.',
    schema: z.object({ query: z.string().min(1) }),
    danger: 'safe',
    readOnly: true,
    kind: 'search',
    summary: (args) => args.query,
    async execute(args) {
      const words = args.query.toLowerCase().split(/\s+/).filter(Boolean);
      const hits = [...byName.values()].filter((t) => words.every((w) => `${t.name} ${t.description}`.toLowerCase().includes(w)));
      return hits.length > 0 ? hits.map((t) => `- ${t.name}: ${short(t.description)}`).join('\n') : `No MCP tool matches "${args.query}".`;
    },
  });
}

function loadTool(byName: ReadonlyMap<string, AnyTool>, loaded: Set<string>): AnyTool {
  return defineTool({
    name: 'load_tool',
    description: 'Loads an MCP tool listed in the system prompt: its schema is returned now, and the tool can be called from your next step.',
    schema: z.object({ name: z.string().min(1) }),
    danger: 'safe',
    readOnly: false,
    kind: 'other',
    summary: (args) => args.name,
    async execute(args) {
      const tool = byName.get(args.name);
      if (!tool) throw new ToolError(`No MCP tool named "${args.name}". Use search_tools to find one.`);
      loaded.add(tool.name);
      return `Loaded ${tool.name}; call it from your next step. Schema:\n${JSON.stringify(toToolSpec(tool).parameters)}`;
    },
  });
}

function short(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > LISTED_DESCRIPTION ? `${flat.slice(0, LISTED_DESCRIPTION - 1)}…` : flat;
}
