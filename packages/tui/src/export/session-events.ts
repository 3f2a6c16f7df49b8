import type { CommandName, CommandPayload, CommandResult, SessionEvent } from '@tandem/shared';

type Request = <C extends CommandName>(command: C, payload: CommandPayload<C>, timeoutMs?: number) => Promise<CommandResult<C>>;

/** Events per `session:history` page when a whole session is read (the protocol's largest page). */
const PAGE = 2000;

/**
 * Every persisted event of a session, oldest first, read page by page from the end with
 * `session:history` (a viewer's right; no attach needed). For exports, never for the screen.
 */
export async function fetchSessionEvents(request: Request, sessionId: string): Promise<SessionEvent[]> {
  const pages: SessionEvent[][] = [];
  let beforeSeq = Number.MAX_SAFE_INTEGER;
  for (;;) {
    const page = await request('session:history', { sessionId, beforeSeq, limit: PAGE }, 60_000);
    if (page.events.length > 0) pages.unshift(page.events);
    if (!page.hasMore || page.firstSeq === undefined) break;
    beforeSeq = page.firstSeq;
  }
  return pages.flat();
}
