import type { SessionInfo } from '@tandem/shared';
import type { TandemClient } from '@tandem/tui/client';
import { chooseSession, mostRecent } from '@tandem/tui/session-choice';

export interface SessionWish {
  /** An id or a unique prefix of one; wins over `cwd`. */
  sessionId?: string | undefined;
  /** The folder whose most recent session to open, or to create one for. */
  cwd: string;
  /** `provider/model` for a new session; an existing one is switched to it. */
  model?: string | undefined;
  viewer?: boolean | undefined;
}

/**
 * The session `tandem` / `tandem attach` opens: the named one, else the folder's most recent
 * one, else a new one for the folder (with `--model` when given). When `--model` names another
 * model than an existing session's, the session is switched to it (session:configure, which
 * everyone attached sees), since that is what the person typing it asked for.
 * Throws an Error whose message says what to do instead.
 */
export async function pickSession(client: TandemClient, wish: SessionWish): Promise<{ session: SessionInfo; created: boolean; switched: boolean }> {
  let session: SessionInfo | undefined;
  if (wish.sessionId) session = await chooseSession(client, { sessionId: wish.sessionId });
  else {
    const { sessions } = await client.request('session:list', {});
    session = mostRecent(sessions.filter((s) => s.cwd === wish.cwd));
  }
  if (!session) {
    if (wish.viewer) {
      throw new Error(
        `no session for ${wish.cwd} on ${client.url}, and a viewer cannot start one; ask a driver to open it, or name a session (tandem ls lists them)`,
      );
    }
    const created = await client.request('session:create', { cwd: wish.cwd, ...(wish.model ? { model: wish.model } : {}) });
    return { session: created.session, created: true, switched: false };
  }
  if (!wish.model || wish.model === session.model) return { session, created: false, switched: false };
  if (wish.viewer) throw new Error(`--model needs a driver: a viewer cannot switch session ${session.id.slice(0, 8)} from ${session.model}`);
  await client.attach(session.id, 'driver', session.lastSeq);
  try {
    const configured = await client.request('session:configure', { sessionId: session.id, model: wish.model });
    return { session: configured.session, created: false, switched: true };
  } finally {
    await client.detach().catch(() => undefined);
  }
}
