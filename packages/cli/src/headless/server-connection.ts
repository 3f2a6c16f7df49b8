import { processAlive, readServerInfo } from '@tandem/server/local';
import { TandemClient } from '@tandem/tui/client';
import { resolveConnection } from '../connection-args.js';
import { ensureLocalServer, localCa } from '../local-server.js';
import { serverAnswers } from '../server-probe.js';
import { trustedCa } from '../trusted-ca.js';

export interface ServerChoice {
  /** `--url`: that server; otherwise the local server of `dataDir`, started in the background when none runs. */
  url?: string | undefined;
  token?: string | undefined;
  /** `--ca FILE`: a certificate to trust for an https:// `--url`. */
  ca?: string | undefined;
  dataDir: string;
  /** Port of a local server started in the background. */
  port: number;
  /** The client name other attached clients see. */
  name: string;
  /** Told once when a local server was started in the background. */
  onStarted?(url: string, pid: number): void;
}

/** What a stdio entrance (`tandem acp`, `tandem mcp serve`) starts with: the folder it works in unless told otherwise, and its server. */
export interface StdioEntranceOptions extends Omit<ServerChoice, 'onStarted'> {
  cwd?: string | undefined;
}

/** A connected client, and how to tell whether its server is gone for good. */
export interface ServerConnection {
  client: TandemClient;
  url: string;
  /** For a local server: whether its process has exited (a dead server will not come back). */
  serverGone(): boolean;
}

/** The server could not be reached or refused us: exit status 1, with a sentence. */
export class ServerUnavailableError extends Error {
  override readonly name = 'ServerUnavailableError';
}

/**
 * Connects a headless entrance (`tandem run`, `tandem acp`, `tandem mcp serve`) to its server:
 * `--url` as given (never started), else the local server, started in the background like the
 * TUI does when none runs. Throws `ServerUnavailableError` with what to do.
 */
export async function connectToServer(choice: ServerChoice): Promise<ServerConnection> {
  if (choice.url) return connectClient(choice, await remoteServer(choice.url, choice.ca));
  // The warm path: the server recorded in server.json, whose process lives, is connected to
  // straight away (no HTTP probe first: loading fetch costs a CLI more than the probe itself).
  const recorded = await readServerInfo(choice.dataDir);
  if (recorded) {
    const connected = await connectClient(choice, { url: recorded.url, pid: recorded.pid, ca: await localCa(recorded) }, 3_000).catch(() => undefined);
    if (connected) return connected;
  }
  return connectClient(choice, await localServer(choice));
}

async function connectClient(
  choice: ServerChoice,
  server: { url: string; pid: number | undefined; ca?: string[] | undefined },
  timeoutMs = 10_000,
): Promise<ServerConnection> {
  const { url, pid } = server;
  const resolved = await resolveConnection({ url, token: choice.token, dataDir: choice.dataDir, ca: choice.ca }).catch((err: Error) => {
    throw new ServerUnavailableError(err.message);
  });
  const ca = resolved.ca ?? server.ca;
  const client = new TandemClient(url, { token: resolved.token, name: choice.name, ...(ca ? { ca } : {}) });
  try {
    await client.ready(timeoutMs);
  } catch (err) {
    client.close();
    throw new ServerUnavailableError((err as Error).message);
  }
  return { client, url, serverGone: () => pid !== undefined && !processAlive(pid) };
}

async function remoteServer(url: string, caFile: string | undefined): Promise<{ url: string; pid: undefined }> {
  if (!(await serverAnswers(url, 5000, caFile ? await trustedCa(caFile) : undefined))) {
    throw new ServerUnavailableError(`cannot reach a tandem server at ${url}; check the address, or start one with \`tandem serve\``);
  }
  return { url, pid: undefined };
}

async function localServer(choice: ServerChoice): Promise<{ url: string; pid: number; ca: string[] | undefined }> {
  try {
    const { info, started } = await ensureLocalServer({ dataDir: choice.dataDir, port: choice.port });
    if (started) choice.onStarted?.(info.url, info.pid);
    return { url: info.url, pid: info.pid, ca: await localCa(info) };
  } catch (err) {
    throw new ServerUnavailableError((err as Error).message);
  }
}
