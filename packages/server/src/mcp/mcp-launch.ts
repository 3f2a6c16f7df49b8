import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpSdk } from './mcp-sdk.js';
import { isHttpEntry, type McpServerConfig } from './mcp-config.js';
import { expandRecord, expandVars, type SecretLookup, type Withheld } from './expand-vars.js';

/** A server's launch with every variable and secret expanded: what actually runs. */
export type McpLaunch =
  | { kind: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd: string }
  | { kind: 'http'; url: string; headers: Record<string, string>; sse: boolean };

export interface ExpandedLaunch {
  launch: McpLaunch;
  /** Secret values used, masked out of everything the model and logs get. */
  secrets: string[];
}

/** Expands `${VAR}`, `${VAR:-default}` and `${secret:NAME}` in command, args, env, cwd, url and headers. Throws a readable error. */
export function expandLaunch(server: McpServerConfig, workspace: string, env: NodeJS.ProcessEnv, secret: SecretLookup, withheld?: Withheld): ExpandedLaunch {
  const { entry } = server;
  const secrets: string[] = [];
  const one = (text: string) => {
    const out = expandVars(text, env, secret, withheld);
    secrets.push(...out.secrets);
    return out.value;
  };
  if (isHttpEntry(entry)) {
    const headers = expandRecord(entry.headers, env, secret, withheld);
    secrets.push(...headers.secrets);
    const url = one(entry.url);
    try {
      new URL(url);
    } catch {
      throw new Error(`"${url}" is not a valid URL`);
    }
    return { launch: { kind: 'http', url, headers: headers.value, sse: entry.type === 'sse' }, secrets };
  }
  const vars = expandRecord(entry.env, env, secret, withheld);
  secrets.push(...vars.secrets);
  return {
    launch: {
      kind: 'stdio',
      command: one(entry.command),
      args: (entry.args ?? []).map(one),
      env: vars.value,
      cwd: entry.cwd ? one(entry.cwd) : workspace,
    },
    secrets,
  };
}

/**
 * The SDK transport for a launch. A local server inherits only the SDK's safe variables (PATH,
 * HOME, …) plus its configured env, never the server's provider keys; its stderr is piped (the
 * caller sends it to the server log, never to a screen).
 */
export function createTransport(sdk: McpSdk, launch: McpLaunch, useSse = launch.kind === 'http' && launch.sse): Transport {
  const { getDefaultEnvironment, StdioClientTransport, SSEClientTransport, StreamableHTTPClientTransport } = sdk;
  if (launch.kind === 'stdio') {
    return new StdioClientTransport({
      command: launch.command,
      args: launch.args,
      env: { ...getDefaultEnvironment(), ...launch.env },
      cwd: launch.cwd,
      stderr: 'pipe',
    });
  }
  const requestInit = { headers: launch.headers };
  return useSse ? new SSEClientTransport(new URL(launch.url), { requestInit }) : new StreamableHTTPClientTransport(new URL(launch.url), { requestInit });
}
