import type { EventBody } from '@tandem/shared';

type LoggedEvent = { type: string; requestId?: unknown };

/**
 * After a restart, a `permission_request` in the log with no `permission_resolved` can never be
 * answered (its turn died with the process). This returns one `permission_resolved` per such
 * request — `deny_once` by `system`, reason `expired` — for the host to append before
 * `turn_interrupted`, so every client closes the dialog and nothing is approved by accident.
 */
export function expireDanglingRequests(events: Iterable<LoggedEvent>): EventBody[] {
  const open = new Set<string>();
  for (const event of events) {
    if (typeof event.requestId !== 'string') continue;
    if (event.type === 'permission_request') open.add(event.requestId);
    else if (event.type === 'permission_resolved') open.delete(event.requestId);
  }
  return [...open].map((requestId) => ({ type: 'permission_resolved', requestId, decision: 'deny_once', by: 'system', reason: 'expired' }));
}
