import { runTui, TandemClient } from '@tandem/tui';
import { resolveConnection } from '../connection-args.js';
import { envMismatch } from '../env-check.js';
import { pickSession } from '../session-pick.js';
import { workspaceDir } from '../workspace.js';

export interface AttachOptions {
  session?: string | undefined;
  url?: string | undefined;
  token?: string | undefined;
  viewer?: boolean | undefined;
  name: string;
  dataDir: string;
  /** `--cwd DIR`: whose session to open when no SESSION is named (default this folder). */
  cwd?: string | undefined;
  model?: string | undefined;
  err?: NodeJS.WritableStream;
}

/**
 * `tandem attach [SESSION]`: the TUI on any server. Without SESSION it opens this folder's
 * (or --cwd's) session, creating it as a driver when there is none; --model sets a new
 * session's model (and switches an existing one's).
 */
export async function attach(options: AttachOptions): Promise<number> {
  const err = options.err ?? process.stderr;
  const cwd = workspaceDir(options.cwd);
  const { url, token } = await resolveConnection(options);
  const client = new TandemClient(url, { token, name: options.name });
  let sessionId: string;
  try {
    await client.ready(10_000);
    if (!options.url) {
      const status = await client.request('server:status', {}).catch(() => undefined);
      const mismatch = status ? envMismatch(status) : undefined;
      if (mismatch) err.write(`tandem: ${mismatch}\n`);
    }
    const picked = await pickSession(client, { sessionId: options.session, cwd, model: options.model, viewer: options.viewer });
    if (picked.switched) err.write(`tandem: session ${picked.session.id.slice(0, 8)} now uses ${picked.session.model}\n`);
    sessionId = picked.session.id;
  } finally {
    client.close();
  }
  return runTui({ url, token, name: options.name, sessionId, viewer: options.viewer });
}
