import { z } from 'zod';
import { defineTool, memoryServiceOf, skillsOf, ToolError, type AnyTool } from '@tandem/core';
import { CONNECTOR_CALL } from '@tandem/coding-tools';
import type { McpHub } from '../mcp/mcp-hub.js';
import { DEFAULT_MCP_CALL_TIMEOUT_MS } from '../mcp/mcp-tool.js';

/**
 * The reverse bridge's own tools, as the session's pipeline runs them (the bridge maps
 * `skill_read` to `read_skill` and `skill_run` to the skill's `skill__NAME` tool itself). Host
 * calls only: never offered to a model.
 */

/** `skills_list {}`: the session's skills (safe). */
export const skillsListTool = defineTool({
  name: 'skills_list',
  description: "Lists Tandem's skills: name, description, where it comes from, and whether it can be run (skill_run).",
  schema: z.object({}).strict(),
  danger: 'safe',
  readOnly: true,
  kind: 'read',
  summary: () => '',
  async execute(_args, ctx) {
    const { skills } = skillsOf(ctx.services).current();
    if (skills.length === 0) return 'No skills.';
    return skills.map((s) => `- ${s.name} (${s.root}${s.command ? ', runnable with skill_run' : ''}): ${s.description.replace(/\s+/g, ' ')}`).join('\n');
  },
});

/** `memory_search { query }`: the workspace's memory items and history (safe). */
export const memorySearchTool = defineTool({
  name: 'memory_search',
  description: "Searches Tandem's memory of this workspace: saved notes and the user profile, and the dated history of earlier sessions.",
  schema: z.object({ query: z.string().min(1).max(1000) }).strict(),
  danger: 'safe',
  readOnly: true,
  kind: 'search',
  summary: (args) => args.query,
  async execute(args, ctx) {
    const memory = memoryServiceOf(ctx.services);
    if (!memory) throw new ToolError('memory is not available in this session');
    const recalled = await memory.recall(args.query, { limit: 8, signal: ctx.signal });
    let history: string[] = [];
    try {
      const found = await memory.searchHistory(args.query, { regex: false, limit: 5 });
      history = found.matches.map((m) => `HISTORY.md:${m.line} ${m.entry}`);
    } catch {
      // A query that is no valid pattern for the history search still got its recall.
    }
    const items = recalled.items.map((r) => `- [${r.item.kind} ${r.item.id}] ${r.item.text}`);
    if (items.length === 0 && history.length === 0) return `Nothing in memory matches "${args.query}".`;
    return [items.length > 0 ? `Memory items:\n${items.join('\n')}` : '', history.length > 0 ? `History:\n${history.join('\n')}` : '']
      .filter(Boolean)
      .join('\n\n');
  },
});

/**
 * `connector_call { agent, server, tool, arguments }`: one of the session's MCP servers called
 * for an external agent. `agent` is set by the bridge, never by the agent; the permission it asks
 * is about the (agent, server) pair, with an "always" answer (allow_forever) for the pair.
 */
export function connectorCallTool(mcp: McpHub): AnyTool {
  return defineTool({
    name: CONNECTOR_CALL,
    description: "Calls a tool of one of Tandem's MCP servers for an external agent.",
    schema: z
      .object({ agent: z.string().min(1), server: z.string().min(1), tool: z.string().min(1), arguments: z.record(z.string(), z.unknown()).default({}) })
      .strict(),
    danger: 'medium',
    readOnly: false,
    kind: 'other',
    // The permission is about the (agent, server) pair, never the tool name.
    subject: (args) => ({ agent: args.agent, server: args.server }),
    summary: (args) => `${args.agent} → ${args.server}: ${args.tool}`,
    preview: (args) => `agent ${args.agent} → MCP server ${args.server}: tool ${args.tool}\n${JSON.stringify(args.arguments ?? {}, null, 2)}`,
    // An MCP server's tool: what it changes is unknown.
    unknownWrites: true,
    timeoutMs: () => DEFAULT_MCP_CALL_TIMEOUT_MS,
    async execute(args, ctx) {
      const tool = await mcp.toolFor(ctx.cwd, ctx.sessionId, args.server, args.tool);
      if (!tool) {
        throw new ToolError(
          `MCP server "${args.server}" has no tool "${args.tool}" here (not configured, waiting for approval, failed, or no such tool): \`tandem mcp list\` shows the servers`,
        );
      }
      return tool.execute(args.arguments, ctx);
    },
  });
}
