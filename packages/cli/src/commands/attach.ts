import { TandemClient } from '@tandem/tui/client';
import type { WhoAmI } from '@tandem/shared';
import { resolveConnection } from '../connection-args.js';
import { envMismatch } from '../env-check.js';
import { pickSession } from '../session-pick.js';
import { loadTui } from './open.js';
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
  /** `--ca FILE`: a certificate to trust for an https:// server. */
  ca?: string | undefined;
  /** `--port N`: the server on this machine's port N. */
  port?: number | undefined;
  err?: NodeJS.WritableStream;
}

/**
 * `tandem attach [SESSION]`: the TUI on any server. Without SESSION it opens this folder's
 * (or --cwd's) session, creating it as a driver when there is none; --model sets a new
 * session's model (and switches an existing one's). A share token opens its one session with
 * its role (a driver share drives, others watch); the view token watches without --viewer.
 */
export async function attach(options: AttachOptions): Promise<number> {
  const err = options.err ?? process.stderr;
  const cwd = workspaceDir(options.cwd);
  // The screen's modules load while the server is reached and the session picked.
  const tui = loadTui();
  const { url, token, ca } = await resolveConnection(options);
  const client = new TandemClient(url, { token, name: options.name, ...(ca ? { ca } : {}) });
  let sessionId: string;
  let viewer = options.viewer;
  try {
    await client.ready(10_000);
    // A server from before shares does not know client:whoami: treat the token as it would.
    const me = await client.request('client:whoami', {}).catch((): WhoAmI => ({ kind: options.viewer ? 'view' : 'control', name: options.name }));
    if (me.share) {
      sessionId = shareSession(me.share, options);
      viewer = !me.share.rights.includes('send') || options.viewer;
    } else {
      if (me.kind === 'view') viewer = true;
      if (!options.url) {
        const status = await client.request('server:status', {}).catch(() => undefined);
        const mismatch = status ? envMismatch(status) : undefined;
        if (mismatch) err.write(`tandem: ${mismatch}\n`);
      }
      const picked = await pickSession(client, { sessionId: options.session, cwd, model: options.model, viewer });
      if (picked.switched) err.write(`tandem: session ${picked.session.id.slice(0, 8)} now uses ${picked.session.model}\n`);
      sessionId = picked.session.id;
    }
  } finally {
    client.close();
  }
  const { runTui } = await tui;
  return runTui({ url, token, name: options.name, sessionId, viewer, ca });
}

/** The one session a share opens; naming another, or --model, is a mistake said in a sentence. */
function shareSession(share: NonNullable<WhoAmI['share']>, options: AttachOptions): string {
  if (options.session && !share.sessionId.startsWith(options.session)) {
    throw new Error(`this share opens session ${share.sessionId} only, not ${options.session}; leave SESSION out to open it`);
  }
  if (options.model) throw new Error(`--model needs the server's control token; a ${share.role} share cannot switch the session's model`);
  return share.sessionId;
}
