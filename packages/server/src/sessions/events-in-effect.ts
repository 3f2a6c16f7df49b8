import { TURN_END_TYPES } from '@tandem/shared';
import type { SessionEvent } from '@tandem/shared';

/**
 * The persisted events whose effect on a client's view lasts until a later event ends it: the
 * open turn's `turn_started`, unanswered `permission_request`s, running workers and jobs, the last
 * `presence`, `context_usage` and `floor_changed`. An attach that sends only the tail of a long
 * log sends the ones older than the tail first, so a view folded from them plus the tail shows
 * what a fold of the whole log would (a compact snapshot, kept up to date event by event).
 */
export class EventsInEffect {
  private turn: SessionEvent | undefined;
  private readonly permissions = new Map<string, SessionEvent>();
  private readonly agents = new Map<string, SessionEvent>();
  private readonly jobs = new Map<string, SessionEvent>();
  private readonly latest = new Map<string, SessionEvent>();

  observe(event: SessionEvent): void {
    // A worker's own turn and context events describe its run, not the session's turn.
    if (
      event.taskId !== undefined &&
      event.type !== 'agent_started' &&
      event.type !== 'agent_done' &&
      event.type !== 'permission_request' &&
      event.type !== 'permission_resolved'
    )
      return;
    switch (event.type) {
      case 'turn_started':
        this.turn = event;
        return;
      case 'permission_request':
        this.permissions.set(event.requestId, event);
        return;
      case 'permission_resolved':
        this.permissions.delete(event.requestId);
        return;
      case 'agent_started':
        this.agents.set(taskOf(event), event);
        return;
      case 'agent_done':
        this.agents.delete(taskOf(event));
        return;
      case 'job_started':
        this.jobs.set(event.jobId, event);
        return;
      case 'job_exited':
        this.jobs.delete(event.jobId);
        return;
      case 'presence':
      case 'context_usage':
      case 'floor_changed':
        this.latest.set(event.type, event);
        return;
      default:
        if (TURN_END_TYPES.has(event.type)) {
          this.turn = undefined;
          // A client's view drops a turn's open questions when the turn ends.
          this.permissions.clear();
        }
    }
  }

  /** A copy holding exactly `events` (what `before(Infinity)` returned): how a snapshot restores it. */
  static from(events: readonly SessionEvent[]): EventsInEffect {
    const restored = new EventsInEffect();
    for (const event of events) restored.observe(event);
    return restored;
  }

  /** The events in effect now that are older than `seq`, in seq order. */
  before(seq: number): SessionEvent[] {
    const all = [this.turn, ...this.permissions.values(), ...this.agents.values(), ...this.jobs.values(), ...this.latest.values()];
    return all.filter((event): event is SessionEvent => event !== undefined && event.seq < seq).sort((a, b) => a.seq - b.seq);
  }
}

/** agent_started / agent_done name their worker's task in `taskId`. */
function taskOf(event: SessionEvent): string {
  const { taskId } = event as { taskId?: unknown };
  return typeof taskId === 'string' ? taskId : '';
}
