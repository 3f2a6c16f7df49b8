import type { CommandResult } from '@tandem/shared';
import type { PanelContent, PanelRow } from './types.js';

export type McpServers = CommandResult<'mcp:list'>['servers'];
export type Skills = CommandResult<'skills:list'>['skills'];

/** F8 / /mcp: the workspace's MCP servers with their live status and tools, then its skills. */
export function extensionsContent(servers: McpServers | undefined, skills: Skills | undefined): PanelContent {
  const rows: PanelRow[] = [
    ...(servers ?? []).map(serverRow),
    ...(skills ?? []).map(
      (skill): PanelRow => ({
        key: `skill:${skill.name}:${skill.dir}`,
        text: `skill ${skill.name.padEnd(20)} ${skill.status.padEnd(12)} ${skill.description}`,
        detail: [skill.dir, skill.command ? `command: ${skill.command}` : '', skill.reason ?? ''].filter(Boolean).join(' · '),
        tone: skill.status === 'ok' ? 'normal' : skill.status === 'shadowed' ? 'muted' : 'bad',
      }),
    ),
  ];
  const connected = (servers ?? []).filter((s) => s.status === 'connected').length;
  return {
    title: `extensions · ${connected}/${(servers ?? []).length} MCP servers connected · ${(skills ?? []).length} skills`,
    rows,
    empty: 'no MCP servers or skills for this workspace (tandem mcp add …, or a SKILL.md under .tandem/skills/)',
    selectable: true,
    actions: [],
  };
}

function serverRow(server: McpServers[number]): PanelRow {
  const status = server.status === 'failed' ? `failed: ${server.reason ?? 'unknown reason'}` : server.status;
  return {
    key: `mcp:${server.name}`,
    text: `mcp   ${server.name.padEnd(20)} ${server.scope.padEnd(8)} ${status}`,
    detail:
      server.tools.length > 0
        ? `tools: ${server.tools.join(', ')}`
        : server.status === 'needs_approval'
          ? 'asked at the next turn that uses this workspace’s servers'
          : 'no tools',
    tone: server.status === 'connected' ? 'good' : server.status === 'failed' ? 'bad' : 'muted',
  };
}
