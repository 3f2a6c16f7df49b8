import { TURN_END_TYPES } from '@tandem/shared';
import type { SessionEvent } from '@tandem/shared';

/**
 * What a session's events say about calls in flight: which tool calls are announced and not yet
 * answered (typed command input waits on them) and how many permission questions are open.
 * A `stamped` subscriber of the event pipeline.
 */
export class CallTracker {
  private readonly inFlight = new Map<string, { ended: Promise<void>; end: () => void }>();
  private pending = 0;

  /** Open permission questions of the running turn. */
  get pendingPermissions(): number {
    return this.pending;
  }

  /** Resolves when the call ends (result, cancel, interruption); undefined for a call not in flight. */
  whenEnded(callId: string): Promise<void> | undefined {
    return this.inFlight.get(callId)?.ended;
  }

  readonly observe = (event: SessionEvent): void => {
    if (event.type === 'tool_call') {
      let end!: () => void;
      const ended = new Promise<void>((resolve) => (end = resolve));
      this.inFlight.set(event.callId, { ended, end });
    } else if (event.type === 'tool_result') {
      this.inFlight.get(event.callId)?.end();
      this.inFlight.delete(event.callId);
    } else if (TURN_END_TYPES.has(event.type)) {
      // A call that never got a result (cancel, interruption) ends with its turn.
      for (const call of this.inFlight.values()) call.end();
      this.inFlight.clear();
      this.pending = 0;
    }
    if (event.type === 'permission_request') this.pending++;
    else if (event.type === 'permission_resolved') this.pending = Math.max(0, this.pending - 1);
  };
}
