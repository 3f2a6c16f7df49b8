import type { McpServers, Packages, PanelContent, PanelRow, Skills } from './types.js';

/** F8 / /mcp / /packages: the workspace's MCP servers with their live status and tools, its skills, then the external packages. */
export function extensionsContent(servers: McpServers | undefined, skills: Skills | undefined, packages: Packages | undefined = []): PanelContent {
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
    ...packages.map(packageRow),
  ];
  const connected = (servers ?? []).filter((s) => s.status === 'connected').length;
  return {
    title: `extensions · ${connected}/${(servers ?? []).length} MCP servers connected · ${(skills ?? []).length} skills · ${packages.length} packages`,
    rows,
    empty: 'no MCP servers, skills or packages for this workspace (tandem mcp add …, a SKILL.md under .tandem/skills/, tandem packages add …)',
    selectable: true,
    actions: [],
  };
}

function packageRow(p: Packages[number]): PanelRow {
  const deps = p.install ? `deps ${p.install.status}` : '';
  return {
    key: `package:${p.name}`,
    text: `pkg   ${p.name.padEnd(20)} ${p.kind.padEnd(8)} ${p.status === 'missing' ? 'folder missing' : p.commit.slice(0, 12)} ${deps}`.trimEnd(),
    detail: [
      p.source,
      p.bins.length > 0 ? `commands: ${p.bins.join(', ')}` : '',
      p.skills.length > 0 ? `skills: ${p.skills.join(', ')}` : '',
      p.install ? `install: ${p.install.command}${p.install.reason ? ` (${p.install.reason})` : ''}` : '',
    ]
      .filter(Boolean)
      .join(' · '),
    tone:
      p.status === 'missing' || p.install?.status === 'failed'
        ? 'bad'
        : p.install?.status === 'pending' || p.install?.status === 'declined'
          ? 'muted'
          : 'normal',
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
