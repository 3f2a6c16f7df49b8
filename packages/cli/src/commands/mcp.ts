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
    .description('add a user MCP server: `mcp add NAME [--env K=V]… -- COMMAND ARGS…` or `mcp add NAME --url URL [--header K=V]…`')
    .argument('<name>', 'the server name (letters, digits, _ and -); its tools are mcp__NAME__TOOL')
    .argument('[command...]', 'the command and its arguments, after --')
    .option('--url <url>', 'a remote server (Streamable HTTP, falling back to SSE)')
    .option('--env <K=V>', 'an environment variable for the server (repeatable; the value is stored encrypted)', collectPair, {})
    .option('--header <K=V>', 'an HTTP header for a remote server (repeatable; the value is stored encrypted)', collectPair, {})
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action(
      async (name: string, command: string[], options: { url?: string; env: Record<string, string>; header: Record<string, string>; dataDir?: string }) => {
        const { addUserServer } = await import('@tandem/server');
        const dataDir = context.dataDirOf(options.dataDir);
        const [cmd, ...args] = command;
        const file = addUserServer({
          dataDir,
          name,
          ...(cmd ? { command: cmd, args } : {}),
          ...(options.url ? { url: options.url } : {}),
          env: options.env,
          headers: options.header,
        });
        const secrets = Object.keys(options.env).length + Object.keys(options.header).length;
        const kept =
          secrets > 0 ? `; ${secrets} secret value(s) (${[...Object.keys(options.env), ...Object.keys(options.header)].join(', ')}) stored encrypted` : '';
        process.stdout.write(
          `added MCP server "${name}" to ${file} (user scope, no approval needed)${kept}\nits tools reach the model as mcp__${name}__TOOL from the next turn\n`,
        );
        context.done(0);
      },
    );
  mcp
    .command('list')
    .description("each MCP server (user and this folder's project .mcp.json) with its live status and, when failed, the reason")
    .option('--cwd <dir>', 'whose project servers to list (default: the current directory)')
    .option('--json', 'print JSON')
    .option('--url <url>', 'ask this server instead of the local one')
    .option('--token <token>', 'a token of that server (default: from the data directory)')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action(async (options: { cwd?: string; json?: boolean; url?: string; token?: string; dataDir?: string }) => {
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
async function listServers(dataDir: string, cwd: string, options: { url?: string | undefined; token?: string | undefined }): Promise<McpServerStatus[]> {
  const [{ McpHub }, { findRunningServer }, { withClient }] = await Promise.all([
    import('@tandem/server'),
    import('../local-server.js'),
    import('./with-client.js'),
  ]);
  if (options.url || (await findRunningServer(dataDir))) {
    const { servers } = await withClient({ dataDir, url: options.url, token: options.token, viewer: true }, 'mcp', (client) =>
      client.request('mcp:list', { cwd }, 60_000),
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

function collectPair(value: string, previous: Record<string, string>): Record<string, string> {
  const eq = value.indexOf('=');
  if (eq <= 0) throw new InvalidArgumentError(`expected KEY=VALUE, got "${value.includes('=') ? value : `${value.slice(0, 20)}…`}"`);
  return { ...previous, [value.slice(0, eq)]: value.slice(eq + 1) };
}
