import type { SessionEvent } from '@tandem/shared';

/**
 * The JSON of a persisted event's log line, kept from the moment the line is made until the
 * event has been handed to its listeners (the broadcast), so the socket frame of that broadcast
 * reuses it instead of stringifying the event again (see handlers/event-frame-parser.ts).
 * Nothing stays here once the event is out: the events kept in memory hold no copy of their JSON.
 */
const lines = new WeakMap<SessionEvent, string>();

/** The event's log line (its JSON), remembered until `forgetEventJson`. */
export function eventJson(event: SessionEvent): string {
  const json = JSON.stringify(event);
  lines.set(event, json);
  return json;
}

/** The JSON of an event whose line was made and which is being handed out now; otherwise undefined. */
export function knownEventJson(event: unknown): string | undefined {
  return typeof event === 'object' && event !== null ? lines.get(event as SessionEvent) : undefined;
}

export function forgetEventJson(event: SessionEvent): void {
  lines.delete(event);
}
