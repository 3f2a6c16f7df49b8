import { loadTokens } from '@tandem/server/local';
import { TandemClient } from '@tandem/tui/client';
import { envMismatch } from '../env-check.js';
import { ensureLocalServer, localCa } from '../local-server.js';
import { pickSession } from '../session-pick.js';
import { workspaceDir } from '../workspace.js';

export interface OpenOptions {
  dataDir: string;
  port: number;
  name: string;
  /** `--cwd DIR`; default the current directory. */
  cwd?: string | undefined;
  /** `--model provider/model`. */
  model?: string | undefined;
  err?: NodeJS.WritableStream;
}

/**
 * `tandem`: the TUI on the local server (started in the background if needed), in the session
 * for this folder (or --cwd), created with --model when there is none yet. Says in one line
 * when this shell's provider settings differ from the running server's.
 */
export async function openLocal(options: OpenOptions): Promise<number> {
  const err = options.err ?? process.stderr;
  const cwd = workspaceDir(options.cwd);
  // The screen's modules (blessed, the views) load while the server is reached and the session picked.
  const tui = loadTui();
  const { info, started } = await ensureLocalServer({ dataDir: options.dataDir, port: options.port });
  if (started) err.write(`tandem: started a server in the background at ${info.url} (pid ${info.pid}); \`tandem stop\` stops it\n`);
  const tokens = await loadTokens(options.dataDir);
  const ca = await localCa(info);
  const sessionId = await withLocalClient(info.url, tokens.control, options.name, ca, async (client) => {
    if (!started) {
      const status = await client.request('server:status', {}).catch(() => undefined);
      const mismatch = status ? envMismatch(status) : undefined;
      if (mismatch) err.write(`tandem: ${mismatch}\n`);
    }
    const picked = await pickSession(client, { cwd, model: options.model });
    if (picked.switched) err.write(`tandem: session ${picked.session.id.slice(0, 8)} now uses ${picked.session.model}\n`);
    return picked.session.id;
  });
  const { runTui } = await tui;
  return runTui({ url: info.url, token: tokens.control, name: options.name, sessionId, ca });
}

/**
 * Starts loading the TUI (`@tandem/tui`: blessed, the views; a few hundred ms of a start-up) without
 * waiting for it, so the network steps before the first screen run meanwhile. A failure to load
 * surfaces when the TUI is awaited, not as an unhandled rejection before.
 */
export function loadTui(): Promise<typeof import('@tandem/tui')> {
  const loading = import('@tandem/tui');
  loading.catch(() => undefined);
  return loading;
}

/** Runs `work` with a short-lived client of the local server, then closes it. */
export async function withLocalClient<T>(
  url: string,
  token: string,
  name: string,
  ca: string[] | undefined,
  work: (client: TandemClient) => Promise<T>,
): Promise<T> {
  const client = new TandemClient(url, { token, name, ...(ca ? { ca } : {}) });
  try {
    await client.ready(10_000);
    return await work(client);
  } finally {
    client.close();
  }
}
