import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { BridgeAnswer, BridgeRun } from './bridge-run.js';

const answer = (a: BridgeAnswer) => ({ content: [{ type: 'text' as const, text: a.text || '(no output)' }], isError: a.isError });

/**
 * The MCP server an external agent reaches through `tandem bridge` (ARCHITECTURE "…the reverse
 * bridge…"): `skills_list`, `skill_read`, `skill_run`, `connector_call`, `memory_search`, each
 * answered by the run's `BridgeRun` (the session's gate and audit).
 */
export function bridgeMcpServer(run: BridgeRun, version: string): McpServer {
  const server = new McpServer({ name: 'tandem-bridge', version });
  server.registerTool(
    'skills_list',
    {
      title: "List Tandem's skills",
      description: "Tandem's skills: name, where each comes from, whether skill_run can run it, and what it is for.",
      inputSchema: {},
    },
    async (_args, extra) => answer(await run.call({ tool: 'skills_list' }, extra.signal)),
  );
  server.registerTool(
    'skill_read',
    {
      title: 'Read a Tandem skill',
      description: "A skill's instructions (its SKILL.md body) and the files beside it. Read a skill before doing a task its description fits.",
      inputSchema: { name: z.string().min(1).describe('The skill name, as skills_list shows it') },
    },
    async ({ name }, extra) => answer(await run.call({ tool: 'skill_read', name }, extra.signal)),
  );
  server.registerTool(
    'skill_run',
    {
      title: 'Run a Tandem skill',
      description:
        "Runs a runnable skill's command in its folder, in Tandem's sandbox; `arguments` are appended to its command line. A person may be asked to approve it.",
      inputSchema: {
        name: z.string().min(1).describe('The skill name'),
        arguments: z.string().max(4000).optional().describe('Appended to the command line as written'),
      },
    },
    async (args, extra) => answer(await run.call({ tool: 'skill_run', name: args.name, arguments: args.arguments }, extra.signal)),
  );
  server.registerTool(
    'connector_call',
    {
      title: "Call one of Tandem's MCP servers",
      description:
        "Calls a tool of one of Tandem's MCP servers (its connectors). The first call to each server asks a person, who may allow it once, for the session, or always.",
      inputSchema: {
        server: z.string().min(1).describe('The MCP server name (as `tandem mcp list` shows it)'),
        tool: z.string().min(1).describe("The server's tool name"),
        arguments: z.record(z.string(), z.unknown()).optional().describe("The tool's arguments"),
      },
    },
    async (args, extra) =>
      answer(await run.call({ tool: 'connector_call', server: args.server, tool_name: args.tool, arguments: args.arguments ?? {} }, extra.signal)),
  );
  server.registerTool(
    'memory_search',
    {
      title: "Search Tandem's memory",
      description: "Searches Tandem's memory of this workspace: saved notes, the user profile, and the history of earlier sessions.",
      inputSchema: { query: z.string().min(1).max(1000).describe('What to look for') },
    },
    async ({ query }, extra) => answer(await run.call({ tool: 'memory_search', query }, extra.signal)),
  );
  return server;
}
