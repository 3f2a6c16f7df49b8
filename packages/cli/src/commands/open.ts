import { loadTokens } from '@tandem/server/local';
import { TandemClient } from '@tandem/tui/client';
import { mostRecent } from '@tandem/tui/session-choice';
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
  /** `-c/--continue`: this folder's most recently used session; never a new one. */
  continue?: boolean | undefined;
  /** `-r/--resume [ID]`: the session named, or one picked from this folder's sessions. */
  resume?: string | true | undefined;
  err?: NodeJS.WritableStream;
  /** Where the `-r` list is shown and answered (default the terminal: stderr and stdin). */
  picker?: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream };
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
  // One connection picks the session and then carries the TUI (no second handshake before the first screen).
  const client = new TandemClient(info.url, { token: tokens.control, name: options.name, ...(ca ? { ca } : {}) });
  let sessionId: string;
  let runTui: typeof import('@tandem/tui')['runTui'];
  try {
    await client.ready(10_000);
    if (!started) {
      const status = await client.request('server:status', {}).catch(() => undefined);
      const mismatch = status ? envMismatch(status) : undefined;
      if (mismatch) err.write(`tandem: ${mismatch}\n`);
    }
    const picked = await pickSession(client, { cwd, model: options.model, sessionId: await existingSession(client, cwd, options) });
    if (picked.switched) err.write(`tandem: session ${picked.session.id.slice(0, 8)} now uses ${picked.session.model}\n`);
    sessionId = picked.session.id;
    ({ runTui } = await tui);
  } catch (error) {
    client.close();
    throw error;
  }
  return runTui({ url: info.url, token: tokens.control, name: options.name, sessionId, ca, client });
}

/**
 * The session `-c` or `-r` asks for (undefined without them: the folder's latest, or a new one).
 * `-c` takes the folder's most recently used; `-r ID` that id; `-r` alone lists the folder's
 * sessions and asks. Neither ever creates one: with none there, it says so and what to run.
 */
async function existingSession(client: TandemClient, cwd: string, options: OpenOptions): Promise<string | undefined> {
  if (typeof options.resume === 'string') return options.resume;
  if (!options.continue && options.resume !== true) return undefined;
  const { sessions } = await client.request('session:list', {});
  const here = sessions.filter((session) => session.cwd === cwd);
  const flag = options.continue ? '-c' : '-r';
  if (here.length === 0) throw new Error(`no session for ${cwd} yet, so nothing to ${flag === '-c' ? 'continue' : 'resume'}; run \`tandem\` to start one`);
  if (options.continue) return mostRecent(here)?.id;
  const { pickToResume } = await import('../resume-picker.js');
  const io = options.picker ?? { input: process.stdin, output: process.stderr };
  return (await pickToResume(here, { ...io, folder: cwd })).id;
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
