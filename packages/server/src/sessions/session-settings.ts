import type { ApprovalMode } from '@tandem/shared';
import { InvalidInputError } from '../errors/domain-errors.js';
import type { Session } from './session.js';

/** What `session:configure` may change. */
export interface SessionChanges {
  model?: string | undefined;
  mode?: ApprovalMode | undefined;
  title?: string | undefined;
  searchOnly?: boolean | undefined;
}

/**
 * Applies `session:configure` to a live session: changes its metadata and records one
 * `session_configured` naming only what changed (nothing when nothing did). A new model takes
 * effect on the next turn, whose client is built then; a running turn keeps the one it
 * started with. Returns what changed; the caller persists the metadata.
 */
export function configureSession(session: Session, changes: SessionChanges, by: string): SessionChanges {
  const meta = session.meta;
  const changed: SessionChanges = {};
  if (changes.model !== undefined && changes.model !== meta.model) {
    meta.model = changes.model;
    session.dropModelClient();
    changed.model = changes.model;
  }
  if (changes.mode !== undefined && changes.mode !== (meta.mode ?? 'ask')) {
    meta.mode = changes.mode;
    changed.mode = changes.mode;
  }
  const title = changes.title?.trim();
  if (changes.title !== undefined && !title) throw new InvalidInputError('a title needs at least one visible character');
  if (title && title !== meta.title) {
    meta.title = title;
    changed.title = title;
  }
  if (changes.searchOnly !== undefined && changes.searchOnly !== (meta.searchOnly ?? false)) {
    meta.searchOnly = changes.searchOnly;
    changed.searchOnly = changes.searchOnly;
  }
  if (Object.keys(changed).length > 0) session.emit({ type: 'session_configured', by, ...changed });
  return changed;
}

/**
 * `session:clear`: discards the conversation WITHOUT memory consolidation. One
 * `conversation_cleared`, which the server's conversation fold and the TUI both read as an
 * empty conversation. Refused with `conflict` while a turn or other maintenance runs.
 */
export async function clearConversation(session: Session, by: string): Promise<void> {
  await session.turns.exclusive('clear the conversation', async () => {
    session.emit({ type: 'conversation_cleared', by });
  });
}
