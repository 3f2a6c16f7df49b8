import { describe, expect, it } from 'vitest';
import { commandEnvPolicy } from '../os-sandbox/command-env.js';
import { expandLaunch } from './mcp-launch.js';
import { launchWithheld } from './launch-withheld.js';
import type { McpServerConfig } from './mcp-config.js';

const env = { TANDEM_TOKEN: 'control-token-value', OPENAI_API_KEY: 'sk-provider', GITHUB_TOKEN: 'ghp-user', LISTED_KEY: 'listed', PATH: '/usr/bin' };
const policy = commandEnvPolicy({ passEnv: ['LISTED_KEY'], tokens: ['control-token-value'] });
const server = (scope: 'project' | 'user', value: string): McpServerConfig =>
  ({ name: 's', scope, entry: { command: 'node', args: ['server.js'], env: { X: value } } }) as unknown as McpServerConfig;
const launch = (scope: 'project' | 'user', value: string) =>
  expandLaunch(server(scope, value), '/ws', env, () => undefined, launchWithheld(scope, env, policy));

describe("an MCP server's launch and the server's secrets", () => {
  it("a project's .mcp.json cannot pull Tandem's token, a provider key or a secret-looking variable into its server", () => {
    expect(() => launch('project', '${TANDEM_TOKEN}')).toThrow(/withheld from MCP servers a project's .mcp.json starts/);
    expect(() => launch('project', '${OPENAI_API_KEY}')).toThrow(/withheld/);
    expect(() => launch('project', 'x-${GITHUB_TOKEN:-none}')).toThrow(/withheld/);
    expect(launch('project', '${LISTED_KEY}').launch).toMatchObject({ env: { X: 'listed' } });
    expect(launch('project', '${PATH}').launch).toMatchObject({ env: { X: '/usr/bin' } });
  });

  it('a server the user added may take what the user wrote, except Tandem’s own token', () => {
    expect(() => launch('user', '${TANDEM_TOKEN}')).toThrow(/Tandem's own token/);
    expect(launch('user', '${GITHUB_TOKEN}').launch).toMatchObject({ env: { X: 'ghp-user' } });
  });
});
