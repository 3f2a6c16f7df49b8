import type { SessionEvent } from '@tandem/shared';
import type { ExportedSession } from './transcript-markdown.js';

/** A session as JSON (`tandem export --format json`): its info and every persisted event, in the wire shape. */
export function transcriptJson(session: ExportedSession, events: readonly SessionEvent[], exportedAt = new Date()): string {
  return `${JSON.stringify({ session, exportedAt: exportedAt.toISOString(), events }, null, 2)}\n`;
}
