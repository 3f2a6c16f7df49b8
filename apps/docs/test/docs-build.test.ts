import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Commands, EventSchemas } from '@tandem/shared';
import { ORCHESTRATION_TOOL_NAMES } from '@tandem/core';
import { blacklistPatterns } from '@tandem/coding-tools';
import { builtinTools } from '@tandem/tools';

const docsDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const site = (page: string) => readFileSync(join(docsDir, 'site', page), 'utf8');

describe('docs site', () => {
  // Builds from the packages' dist (pnpm test builds first), as `pnpm build` does.
  execFileSync(process.execPath, [join(docsDir, 'scripts/build.mjs')], { cwd: docsDir, stdio: 'pipe' });

  it('has every page of the navigation', () => {
    for (const page of [
      'index',
      'getting-started',
      'requirements',
      'architecture',
      'contracts',
      'protocol',
      'cli',
      'configuration',
      'tools',
      'safety',
      'providers',
      'context-and-memory',
      'cluster',
    ]) {
      expect(site(`${page}.html`)).toContain('<main>');
    }
  });

  it('shows the web viewer page with its screenshot copied beside it', () => {
    expect(site('web-viewer.html')).toContain('<img src="images/web-viewer.png"');
    expect(
      readFileSync(join(docsDir, 'site', 'images', 'web-viewer.png'))
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
  });

  it('documents running several nodes: the flags, the lease, each fault, a load balancer', () => {
    const cluster = site('cluster.html');
    for (const flag of ['--redis', '--node-id', '--lease-seconds', '--redis-optional']) expect(cluster).toContain(`<code>${flag}`);
    expect(cluster).toContain('offline');
    expect(cluster).toContain('upstream tandem');
    expect(site('cli.html')).toContain('href="cluster.html"');
    expect(site('index.html')).toContain('href="cluster.html"');
  });

  it('documents the entrances for scripts, CI, editors and other agents, linked from the CLI reference', () => {
    const page = site('entrances.html');
    for (const text of [
      'tandem run',
      '--output-format',
      'stream-json',
      '--approval-mode',
      'full-auto',
      'tandem acp',
      'agent_servers',
      'tandem mcp serve',
      'claude mcp add',
      'tandem_run',
    ]) {
      expect(page).toContain(text);
    }
    for (const status of ['130', '<td>3</td>', '<td>2</td>']) expect(page).toContain(status);
    expect(site('cli.html')).toContain('href="entrances.html"');
  });

  it('documents external packages, external agents, the reverse bridge and self-evolution, with the contract names', () => {
    const packages = site('packages.html');
    for (const text of [
      'tandem packages add',
      'tandem packages ls',
      'tandem packages update',
      'tandem packages rm',
      '&lt;data-dir&gt;/packages/NAME',
      'packages.json',
      '&lt;data-dir&gt;/bin',
      'symbolic link',
      'package_install',
    ])
      expect(packages).toContain(text);
    const external = site('external-agents.html');
    for (const text of ['command:', '{task}', 'TANDEM_TASK', 'tandem agents external', 'run_command']) expect(external).toContain(text);
    const bridge = site('bridge.html');
    for (const text of ['TANDEM_BRIDGE', 'tandem bridge', 'skills_list', 'skill_read', 'skill_run', 'connector_call', 'memory_search'])
      expect(bridge).toContain(text);
    const evolution = site('self-evolution.html');
    for (const text of [
      'evolve: true',
      'evolution',
      'tandem agents evolution NAME --run-now',
      'agents.reflection',
      'intervalSeconds',
      '&lt;data-dir&gt;/agents/NAME/skills/',
    ])
      expect(evolution).toContain(text);
    // The bridge is the one deliberate exception to "a command is never a client of its own server", said where safety is.
    for (const text of ['The one narrow exception: the reverse bridge', 'TANDEM_BRIDGE', 'bridge.html']) expect(site('safety.html')).toContain(text);
    for (const text of ['its own login', 'sandbox.allowHosts', 'commandSandbox.writable']) expect(external).toContain(text);
    for (const page of ['packages', 'external-agents', 'bridge', 'self-evolution']) expect(site('cli.html')).toContain(`href="${page}.html"`);
  });

  it('documents every command and every session event of the protocol', () => {
    const protocol = site('protocol.md');
    for (const name of Object.keys(Commands)) expect(protocol).toContain(`\`${name}\``);
    for (const type of Object.keys(EventSchemas)) expect(protocol).toContain(`\`${type}\``);
  });

  it('lists every built-in tool and every blacklist pattern', () => {
    const tools = site('tools.md');
    for (const tool of builtinTools()) expect(tools).toContain(`\`${tool.name}\``);
    for (const name of ORCHESTRATION_TOOL_NAMES) expect(tools).toContain(`| \`${name}\` |`);
    expect(blacklistPatterns().length).toBeGreaterThanOrEqual(23);
    for (const p of blacklistPatterns()) expect(tools).toContain(p.why);
  });
});
