import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { TandemClient } from '@tandem/tui/client';
import { connectToServer, type ServerConnection, type StdioEntranceOptions } from '../headless/server-connection.js';
import { workspaceDir } from '../workspace.js';
import { EVENTS_INPUT, RUN_INPUT, tandemEvents, tandemRun, tandemSessions, type ToolDeps } from './mcp-tools.js';

export type McpServeOptions = StdioEntranceOptions;

const SERVER_VERSION: string = '0.1.0';

/**
 * `tandem mcp serve`: an MCP server on stdio whose tools hand work to Tandem (`tandem_run`),
 * list its sessions (`tandem_sessions`) and read a session's events (`tandem_events`). Each
 * `tandem_run` is an ordinary turn of a live session that people can watch and approve. The
 * Tandem server is reached (or started) on the first call. Resolves with 0 when the MCP client
 * closes stdin; turns still running then are cancelled.
 */
export async function serveMcp(options: McpServeOptions): Promise<number> {
  const defaultCwd = workspaceDir(options.cwd);
  const by = `${options.name.slice(0, 58)} (mcp)`;
  const connect = (): Promise<ServerConnection> =>
    connectToServer({ url: options.url, token: options.token, ca: options.ca, dataDir: options.dataDir, port: options.port, name: by });
  let sharedClient: Promise<TandemClient> | undefined;
  const deps: ToolDeps = {
    connect,
    shared: () => {
      sharedClient ??= connect().then((c) => c.client);
      sharedClient.catch(() => {
        sharedClient = undefined;
      });
      return sharedClient;
    },
    by,
    defaultCwd,
  };
  /** Each `tandem_run` in flight: how to cancel it, and when it has finished. */
  const running = new Map<AbortController, Promise<unknown>>();

  const server = new McpServer({ name: 'tandem', version: SERVER_VERSION });
  server.registerTool(
    'tandem_run',
    {
      title: 'Run a Tandem turn',
      description:
        'Hands a task to Tandem, a tool-using coding agent, and returns its final answer. The turn runs in a live Tandem session ' +
        'that people can watch and approve from a terminal (`tandem attach`) or the web viewer. The structured content holds the ' +
        'result object: sessionId, turnId, result, isError, iterations, usage, durationMs, stopReason. Pass sessionId to continue a session.',
      inputSchema: RUN_INPUT,
    },
    async (args, extra) => {
      const stop = new AbortController();
      const onAbort = () => stop.abort();
      extra.signal.addEventListener('abort', onAbort, { once: true });
      const token = extra._meta?.progressToken;
      let step = 0;
      const progress = (message: string) => {
        if (token === undefined) return;
        step += 1;
        void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: step, message } }).catch(() => undefined);
      };
      const work = tandemRun(deps, args, stop.signal, progress);
      running.set(
        stop,
        work.catch(() => undefined),
      );
      try {
        const { text, result } = await work;
        return { content: [{ type: 'text', text: text || '(no answer)' }], structuredContent: { ...result }, isError: result.isError };
      } catch (err) {
        return { content: [{ type: 'text', text: `tandem_run failed: ${(err as Error).message}` }], isError: true };
      } finally {
        extra.signal.removeEventListener('abort', onAbort);
        running.delete(stop);
      }
    },
  );
  server.registerTool(
    'tandem_sessions',
    {
      title: 'List Tandem sessions',
      description: "The Tandem server's sessions: id, title, folder (cwd), model, approval mode, status (idle, running, waiting_permission), lastSeq.",
      inputSchema: {},
    },
    async () => {
      try {
        const { sessions } = await tandemSessions(deps);
        const lines = sessions.map((s) => `${s.id}  ${s.status}  ${s.mode ?? 'ask'}  ${s.model}  ${s.cwd}  ${s.title}`);
        return { content: [{ type: 'text', text: lines.length > 0 ? lines.join('\n') : 'no sessions' }], structuredContent: { sessions } };
      } catch (err) {
        return { content: [{ type: 'text', text: `tandem_sessions failed: ${(err as Error).message}` }], isError: true };
      }
    },
  );
  server.registerTool(
    'tandem_events',
    {
      title: 'Read a Tandem session',
      description:
        "A Tandem session's events after afterSeq, oldest first, in Tandem's wire shape (user_message, assistant_text, tool_call, tool_result, " +
        'permission_request, turn_done …), at most 200 per call; call again with nextAfterSeq while hasMore.',
      inputSchema: EVENTS_INPUT,
    },
    async ({ sessionId, afterSeq }) => {
      try {
        const page = await tandemEvents(deps, sessionId, afterSeq);
        return {
          content: [{ type: 'text', text: page.events.map((event) => JSON.stringify(event)).join('\n') || 'no events' }],
          structuredContent: { ...page },
        };
      } catch (err) {
        return { content: [{ type: 'text', text: `tandem_events failed: ${(err as Error).message}` }], isError: true };
      }
    },
  );

  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    // The client closes stdin (or stops us) when it goes: the same end either way.
    process.stdin.once('end', () => void transport.close());
    process.once('SIGTERM', () => void transport.close());
  });
  await server.connect(transport);
  await closed;
  // The MCP client is gone: nobody will read the answers of turns still running.
  for (const stop of running.keys()) stop.abort();
  await Promise.race([Promise.all(running.values()), new Promise((resolve) => setTimeout(resolve, 3000).unref())]);
  if (sharedClient) (await sharedClient.catch(() => undefined))?.close();
  return 0;
}
