import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { connectToServer, type ServerConnection, type StdioEntranceOptions } from '../headless/server-connection.js';
import { workspaceDir } from '../workspace.js';
import { modeState } from './acp-modes.js';
import { AcpSession, type EditorSide, TurnFailedError } from './acp-session.js';

export type AcpServeOptions = StdioEntranceOptions;

const AGENT_VERSION = '0.1.0';

/**
 * `tandem acp`: an Agent Client Protocol agent (protocol version 1) on stdin/stdout for editors.
 * `session/new` creates a Tandem session (the ACP session id is its id), `session/load` attaches
 * to one and replays its history, `session/prompt` runs a turn in it, `session/cancel` stops it,
 * `session/set_mode` sets its approval mode. Each session is the live Tandem session: terminals
 * and the web viewer attached to it see the editor's turns and may answer its permission
 * requests. Resolves with 0 when the editor closes the connection.
 */
export async function serveAcp(options: AcpServeOptions): Promise<number> {
  const by = `${options.name.slice(0, 58)} (acp)`;
  const localFiles = !options.url;
  const sessions = new Map<string, AcpSession>();
  const connect = (): Promise<ServerConnection> =>
    connectToServer({
      url: options.url,
      token: options.token,
      ca: options.ca,
      dataDir: options.dataDir,
      port: options.port,
      name: by,
      onStarted: (url, pid) => process.stderr.write(`tandem acp: started a server in the background at ${url} (pid ${pid})\n`),
    });
  let editor: EditorSide | undefined;
  let toldMcp = false;

  const sessionOf = (sessionId: string): AcpSession => {
    const session = sessions.get(sessionId);
    if (!session) throw acp.RequestError.sessionNotFound(sessionId);
    return session;
  };
  const openSession = async (sessionId: string | undefined, cwd: string, replay: boolean): Promise<AcpSession> => {
    const connection = await connect().catch((err: Error) => {
      throw acp.RequestError.internalError(undefined, err.message);
    });
    try {
      const { client } = connection;
      let info;
      if (sessionId) {
        const { sessions: listed } = await client.request('session:list', {});
        info = listed.find((s) => s.id === sessionId);
        if (!info) throw acp.RequestError.sessionNotFound(sessionId);
      } else {
        info = (await client.request('session:create', { cwd })).session;
      }
      sessions.get(info.id)?.close();
      const session = await AcpSession.open({ connection, session: info, editor: editor!, by, localFiles }, replay);
      sessions.set(session.id, session);
      return session;
    } catch (err) {
      connection.client.close();
      throw err;
    }
  };
  const folderOf = (cwd: string | undefined): string => {
    try {
      return workspaceDir(cwd ?? options.cwd);
    } catch (err) {
      throw acp.RequestError.invalidParams(undefined, (err as Error).message);
    }
  };
  const ignoredMcpServers = (count: number) => {
    if (count === 0 || toldMcp) return;
    toldMcp = true;
    process.stderr.write("tandem acp: the MCP servers the editor passes are not started; Tandem uses its own (`tandem mcp add`, or the folder's .mcp.json)\n");
  };

  const app = acp
    .agent({ name: 'tandem' })
    .onRequest('initialize', () => ({
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
        mcpCapabilities: { http: false, sse: false },
      },
      authMethods: [],
      agentInfo: { name: 'tandem', title: 'Tandem', version: AGENT_VERSION },
    }))
    .onRequest('session/new', async ({ params }) => {
      ignoredMcpServers(params.mcpServers.length);
      const session = await openSession(undefined, folderOf(params.cwd), false);
      return { sessionId: session.id, modes: modeState(session.info.mode) };
    })
    .onRequest('session/load', async ({ params }) => {
      ignoredMcpServers(params.mcpServers.length);
      const session = await openSession(params.sessionId, params.cwd, true);
      return { modes: modeState(session.info.mode) };
    })
    .onRequest('session/set_mode', async ({ params }) => {
      try {
        await sessionOf(params.sessionId).setMode(params.modeId);
      } catch (err) {
        if (err instanceof acp.RequestError) throw err;
        throw acp.RequestError.invalidParams(undefined, (err as Error).message);
      }
      return {};
    })
    .onRequest('session/prompt', async ({ params }) => {
      const session = sessionOf(params.sessionId);
      try {
        return { stopReason: await session.prompt(params.prompt) };
      } catch (err) {
        if (err instanceof TurnFailedError) throw acp.RequestError.internalError(undefined, err.message);
        throw acp.RequestError.internalError(undefined, (err as Error).message);
      }
    })
    .onNotification('session/cancel', ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    });

  const connection = app.connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>));
  const client = connection.client;
  editor = {
    update: (sessionId, update) => client.notify('session/update', { sessionId, update }),
    requestPermission: (request, cancel) => client.request('session/request_permission', request, { cancellationSignal: cancel }),
  };
  await connection.closed;
  for (const session of sessions.values()) session.close();
  return 0;
}
