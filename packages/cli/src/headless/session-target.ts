import type { SessionInfo } from '@tandem/shared';
import type { TandemClient } from '@tandem/tui/client';
import { chooseSession, mostRecent } from '@tandem/tui/session-choice';

export interface SessionTarget {
  /** `--session ID`: an id or a unique prefix of one. */
  sessionId?: string | undefined;
  /** `--continue`: the folder's most recent session (a new one when it has none). */
  continueLast?: boolean | undefined;
  /** The folder (a real path). */
  cwd: string;
  /** `--model provider/model`: a new session's model; an existing session is switched to it. */
  model?: string | undefined;
}

/** `--session` names no session of the server: a usage error (exit 2). */
export class UnknownSessionError extends Error {
  override readonly name = 'UnknownSessionError';
}

/**
 * The session a headless turn runs in: `--session` (which must exist), `--continue` (the
 * folder's most recent session), else a new session for the folder. `--model` on an existing
 * session switches it, as `tandem --model` does; the caller must be attached as driver for that,
 * so the switch is returned for the caller to make.
 */
export async function targetSession(client: TandemClient, target: SessionTarget): Promise<{ session: SessionInfo; created: boolean }> {
  if (target.sessionId) {
    try {
      return { session: await chooseSession(client, { sessionId: target.sessionId }), created: false };
    } catch (err) {
      throw new UnknownSessionError((err as Error).message);
    }
  }
  if (target.continueLast) {
    const { sessions } = await client.request('session:list', {});
    const latest = mostRecent(sessions.filter((s) => s.cwd === target.cwd));
    if (latest) return { session: latest, created: false };
  }
  const { session } = await client.request('session:create', { cwd: target.cwd, ...(target.model ? { model: target.model } : {}) });
  return { session, created: true };
}
