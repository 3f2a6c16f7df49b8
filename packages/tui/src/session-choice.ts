import type { SessionInfo } from '@tandem/shared';
import type { TandemClient } from './client.js';

export interface SessionChoice {
  /** An id, or a unique prefix of one (as `tandem ls` prints them). */
  sessionId?: string | undefined;
  /** Open the most recent session whose cwd is this directory, creating one if none. */
  cwd?: string | undefined;
  viewer?: boolean | undefined;
}

/** Which session to attach to; throws an Error whose message says what to do instead. */
export async function chooseSession(client: TandemClient, choice: SessionChoice): Promise<SessionInfo> {
  const { sessions } = await client.request('session:list', {});
  if (choice.sessionId) return byId(sessions, choice.sessionId);
  const candidates = choice.cwd ? sessions.filter((session) => session.cwd === choice.cwd) : sessions;
  const latest = mostRecent(candidates);
  if (latest) return latest;
  if (choice.viewer) {
    throw new Error(
      choice.cwd
        ? `no session for ${choice.cwd} on ${client.url}, and a viewer cannot create one; ask a driver to start it`
        : `no sessions on ${client.url} yet, and a viewer cannot create one; ask a driver to start one`,
    );
  }
  const { session } = await client.request('session:create', choice.cwd ? { cwd: choice.cwd } : {});
  return session;
}

function byId(sessions: SessionInfo[], id: string): SessionInfo {
  const exact = sessions.find((session) => session.id === id);
  if (exact) return exact;
  const matches = sessions.filter((session) => session.id.startsWith(id));
  if (matches.length === 1 && matches[0]) return matches[0];
  if (matches.length > 1) throw new Error(`session id "${id}" matches ${matches.length} sessions; give more characters (tandem ls lists them)`);
  throw new Error(`no session "${id}" on this server; tandem ls lists the sessions`);
}

/** The session used last (its last event; a server without `updatedAt`: the one created last). */
export function mostRecent(sessions: SessionInfo[]): SessionInfo | undefined {
  return [...sessions].sort((a, b) => lastUsed(b).localeCompare(lastUsed(a)) || b.createdAt.localeCompare(a.createdAt))[0];
}

export function lastUsed(session: SessionInfo): string {
  return session.updatedAt ?? session.createdAt;
}
