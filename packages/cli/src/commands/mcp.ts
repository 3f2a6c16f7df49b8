import { type Command, InvalidArgumentError } from 'commander';
import type { McpServerStatus } from '@tandem/server';
import { plainTable } from '../plain-table.js';

// The server package (MCP client, secret store) loads only when an mcp command runs, never for `tandem help`.

export interface McpCommandContext {
  dataDirOf(flag: string | undefined): string;
  done(code: number): void;
}

const DATA_DIR_HELP = 'the local data directory (default $TANDEM_DATA_DIR or ~/.tandem)';

/**
 * `tandem mcp add | list | remove`: the user's MCP servers in `<data-dir>/mcp.json`. Secret
 * values (--env, --header) go to the encrypted secret store and are never printed back.
 */
export function registerMcpCommands(program: Command, context: McpCommandContext): void {
  const mcp = program.command('mcp').description('MCP servers: add, list (with live status), remove');
  mcp
    .command('add')
    .description(
      'add a user MCP server: `mcp add NAME [--env K=V]… -- COMMAND ARGS…`, `mcp add NAME --url URL [--header K=V]…`, or as in Claude Code `mcp add [--transport http|sse] NAME URL [--header "K: V"]…`',
    )
    .argument('<name>', 'the server name (letters, digits, _ and -); its tools are mcp__NAME__TOOL')
    .argument('[command...]', 'the command and its arguments, after -- (with --transport http or sse: the URL)')
    .option('--transport <kind>', 'stdio (a command, the default), http (Streamable HTTP, falling back to SSE) or sse (only the older SSE)', parseTransport)
    .option('--url <url>', 'a remote server (Streamable HTTP, falling back to SSE)')
    .option('-e, --env <K=V>', 'an environment variable for the server (repeatable; the value is stored encrypted)', collectPair, {})
    .option('-H, --header <K:V>', 'an HTTP header for a remote server, "Name: value" or Name=value (repeatable; stored encrypted)', collectHeader, {})
    .option(
      '-s, --scope <scope>',
      "user (the default; Claude Code's local is taken as user); project servers are written in the folder's .mcp.json by hand",
      parseScope,
    )
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action(async (name: string, command: string[], options: AddFlags) => {
      const { addUserServer } = await import('@tandem/server');
      const dataDir = context.dataDirOf(options.dataDir);
      const launch = launchOf(command, options);
      const file = addUserServer({ dataDir, name, ...launch, env: options.env, headers: options.header });
      reportAdded(name, file, options.env, options.header);
      context.done(0);
    });
  mcp
    .command('add-json')
    .description('add a user MCP server from one entry\'s JSON, as in Claude Code: mcp add-json NAME \'{"type":"http","url":"https://…"}\'')
    .argument('<name>', 'the server name (letters, digits, _ and -)')
    .argument('<json>', 'the entry: {"command", "args"?, "env"?} or {"type": "http" | "sse", "url", "headers"?}; env and header values are stored encrypted')
    .option('-s, --scope <scope>', 'user (the default; local is taken as user)', parseScope)
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action(async (name: string, json: string, options: { dataDir?: string }) => {
      const { addUserServerJson } = await import('@tandem/server');
      const file = addUserServerJson(context.dataDirOf(options.dataDir), name, json);
      const parsed = JSON.parse(json) as { env?: Record<string, string>; headers?: Record<string, string> };
      reportAdded(name, file, parsed.env ?? {}, parsed.headers ?? {});
      context.done(0);
    });
  mcp
    .command('list')
    .description("each MCP server (user and this folder's project .mcp.json) with its live status and, when failed, the reason")
    .option('--cwd <dir>', 'whose project servers to list (default: the current directory)')
    .option('--json', 'print JSON')
    .option('--url <url>', 'ask this server instead of the local one')
    .option('--token <token>', 'a token of that server (default: from the data directory)')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action(async (options: { cwd?: string; json?: boolean; url?: string; token?: string; port?: number; ca?: string; dataDir?: string }) => {
      const dataDir = context.dataDirOf(options.dataDir);
      const cwd = options.cwd ?? process.cwd();
      const servers = await listServers(dataDir, cwd, options);
      process.stdout.write(options.json ? `${JSON.stringify(servers, null, 2)}\n` : formatServers(servers));
      context.done(0);
    });
  mcp
    .command('remove')
    .description('remove a user MCP server and its stored secrets')
    .argument('<name>', 'the server name')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action(async (name: string, options: { dataDir?: string }) => {
      const { removeUserServer } = await import('@tandem/server');
      const removed = removeUserServer(context.dataDirOf(options.dataDir), name);
      if (!removed) {
        process.stderr.write(`no user MCP server named "${name}" (tandem mcp list shows them; project servers live in the folder's .mcp.json)\n`);
        context.done(1);
        return;
      }
      process.stdout.write(`removed MCP server "${name}" and its secrets\n`);
      context.done(0);
    });
}

/** The running server's view (live connections) when one runs; else a probe started here and stopped after. */
async function listServers(
  dataDir: string,
  cwd: string,
  options: { url?: string | undefined; token?: string | undefined; port?: number | undefined; ca?: string | undefined },
): Promise<McpServerStatus[]> {
  const [{ McpHub }, { findRunningServer }, { withClient }] = await Promise.all([
    import('@tandem/server'),
    import('../local-server.js'),
    import('./with-client.js'),
  ]);
  if (options.url || options.port !== undefined || (await findRunningServer(dataDir))) {
    const { servers } = await withClient(
      { dataDir, url: options.url, token: options.token, port: options.port, ca: options.ca, viewer: true },
      'mcp',
      (client) => client.request('mcp:list', { cwd }, 60_000),
    );
    return servers;
  }
  const hub = new McpHub({ dataDir, env: process.env });
  try {
    return await hub.status(cwd);
  } finally {
    await hub.close();
  }
}

export function formatServers(servers: McpServerStatus[]): string {
  if (servers.length === 0) return 'no MCP servers: add one with `tandem mcp add NAME -- COMMAND ARGS…` or a .mcp.json in the folder\n';
  const rows = [['NAME', 'SCOPE', 'STATUS', 'TOOLS', 'REASON'], ...servers.map((s) => [s.name, s.scope, s.status, String(s.tools.length), s.reason ?? ''])];
  return plainTable(rows);
}

interface AddFlags {
  transport?: 'stdio' | 'http' | 'sse';
  url?: string;
  env: Record<string, string>;
  header: Record<string, string>;
  scope?: string;
  dataDir?: string;
}

/** What `mcp add` starts: a command (stdio), or a URL (`--url`, or the word after NAME with --transport http|sse). */
export function launchOf(
  words: string[],
  options: Pick<AddFlags, 'transport' | 'url'>,
): { command: string; args: string[] } | { url: string; transport: 'http' | 'sse' } {
  const remote = options.transport === 'http' || options.transport === 'sse' || (options.transport === undefined && options.url !== undefined);
  if (!remote) {
    if (options.url) throw new Error('--url is for a remote server: use --transport http or sse, or give a command after -- instead');
    const [command, ...args] = words;
    if (!command) throw new Error('give the command after --, e.g. tandem mcp add files -- npx -y @modelcontextprotocol/server-filesystem ~/notes');
    return { command, args };
  }
  if (options.url && words.length > 0) throw new Error(`give the URL once: --url ${options.url} or after the name, not both (got also "${words.join(' ')}")`);
  const url = options.url ?? words[0];
  if (!url || words.length > 1)
    throw new Error('a remote server takes one URL after its name, e.g. tandem mcp add --transport http sentry https://mcp.sentry.dev/mcp');
  if (!/^https?:\/\//i.test(url)) throw new Error(`"${url}" is not an http(s) URL`);
  return { url, transport: options.transport === 'sse' ? 'sse' : 'http' };
}

function reportAdded(name: string, file: string, env: Record<string, string>, headers: Record<string, string>): void {
  const secrets = [...Object.keys(env), ...Object.keys(headers)];
  const kept = secrets.length > 0 ? `; ${secrets.length} secret value(s) (${secrets.join(', ')}) stored encrypted` : '';
  process.stdout.write(
    `added MCP server "${name}" to ${file} (user scope, no approval needed)${kept}\nits tools reach the model as mcp__${name}__TOOL from the next turn\n`,
  );
}

function parseTransport(value: string): 'stdio' | 'http' | 'sse' {
  const kind = value.toLowerCase() === 'streamable-http' ? 'http' : value.toLowerCase();
  if (kind !== 'stdio' && kind !== 'http' && kind !== 'sse') throw new InvalidArgumentError(`expected stdio, http or sse, got "${value}"`);
  return kind;
}

function parseScope(value: string): string {
  const scope = value.toLowerCase();
  if (scope === 'user' || scope === 'local') return 'user';
  if (scope === 'project')
    throw new InvalidArgumentError(
      "project servers live in the folder's .mcp.json (committed with the project, approved once by a driver): write them there; `tandem mcp add` keeps user servers, with their secrets encrypted",
    );
  throw new InvalidArgumentError(`expected user or local, got "${value}"`);
}

/** `--header "Authorization: Bearer x"` (Claude Code's form) or `--header Authorization=Bearer x`. */
function collectHeader(value: string, previous: Record<string, string>): Record<string, string> {
  const colon = value.indexOf(':');
  const eq = value.indexOf('=');
  const at = colon > 0 && (eq < 0 || colon < eq) ? colon : eq;
  if (at <= 0) throw new InvalidArgumentError(`expected "Name: value" or Name=value, got "${value.length > 20 ? `${value.slice(0, 20)}…` : value}"`);
  return { ...previous, [value.slice(0, at).trim()]: value.slice(at + 1).trim() };
}

function collectPair(value: string, previous: Record<string, string>): Record<string, string> {
  const eq = value.indexOf('=');
  if (eq <= 0) throw new InvalidArgumentError(`expected KEY=VALUE, got "${value.includes('=') ? value : `${value.slice(0, 20)}…`}"`);
  return { ...previous, [value.slice(0, eq)]: value.slice(eq + 1) };
}
