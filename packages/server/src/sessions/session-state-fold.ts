import { TURN_END_TYPES } from '@tandem/shared';
import type { SessionEvent } from '@tandem/shared';
import { UsageTotals, type UsageTotalsSnapshot } from './usage-totals.js';

type SessionInfoEvent = Extract<SessionEvent, { type: 'session_info' }>;

/** The JSON-safe form of a `SessionStateFold` (stored in a session snapshot). */
export interface SessionStateSnapshot {
  granted: string[];
  /** Protected locations granted write (`sandbox_granted` with `write`); absent from older snapshots. */
  writeGranted?: string[];
  openTurnId: string | null;
  info: SessionInfoEvent | null;
  openRequests: string[];
  stalePresence: boolean;
  /** What the session's turns used, per model (absent from snapshots of older servers: the log is read whole then). */
  usage?: UsageTotalsSnapshot;
}

/**
 * What a server start needs from a session's log besides the conversation, folded event by event
 * in constant memory: the granted sandbox paths, a turn that started and never ended, the
 * permission requests never resolved, whether the last presence listed clients, the first
 * `session_info`. Fed at load and then with each written event, so it can be snapshotted.
 */
export class SessionStateFold {
  granted: string[] = [];
  writeGranted: string[] = [];
  openTurnId: string | undefined;
  info: SessionInfoEvent | undefined;
  stalePresence = false;
  /** Tokens and cost of every turn, per model that answered (`session:usage`). */
  usage = new UsageTotals();
  /** Unresolved request ids, in the order a fold of every request/resolution leaves them. */
  private readonly openRequests = new Set<string>();

  observe(event: SessionEvent): void {
    if (event.type === 'usage') this.usage.observe(event);
    else if (event.type === 'turn_started') this.openTurnId = event.turnId;
    else if (TURN_END_TYPES.has(event.type)) this.openTurnId = undefined;
    else if (event.type === 'sandbox_granted') (event.write ? this.writeGranted : this.granted).push(event.path);
    else if (event.type === 'session_info') this.info ??= event;
    else if (event.type === 'presence') this.stalePresence = event.clients.length > 0;
    else if (event.type === 'permission_request' && typeof event.requestId === 'string') this.openRequests.add(event.requestId);
    else if (event.type === 'permission_resolved' && typeof event.requestId === 'string') this.openRequests.delete(event.requestId);
  }

  /** The permission requests never resolved, as events `expireDanglingRequests` reads. */
  get permissionEvents(): Array<{ type: string; requestId: string }> {
    return [...this.openRequests].map((requestId) => ({ type: 'permission_request', requestId }));
  }

  snapshot(): SessionStateSnapshot {
    return {
      granted: [...this.granted],
      writeGranted: [...this.writeGranted],
      openTurnId: this.openTurnId ?? null,
      info: this.info ?? null,
      openRequests: [...this.openRequests],
      stalePresence: this.stalePresence,
      usage: this.usage.snapshot(),
    };
  }

  /** A fold continuing from `snapshot()`; throws when it is malformed. */
  static restore(value: unknown): SessionStateFold {
    const s = value as Partial<SessionStateSnapshot> | null;
    const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
    if (
      typeof s !== 'object' ||
      s === null ||
      !strings(s.granted) ||
      !strings(s.openRequests) ||
      typeof s.stalePresence !== 'boolean' ||
      (s.openTurnId !== null && typeof s.openTurnId !== 'string') ||
      (s.info !== null && (typeof s.info !== 'object' || s.info?.type !== 'session_info'))
    ) {
      throw new Error('session state snapshot: malformed');
    }
    const fold = new SessionStateFold();
    fold.granted = [...s.granted];
    fold.writeGranted = strings(s.writeGranted) ? [...s.writeGranted] : [];
    fold.openTurnId = s.openTurnId ?? undefined;
    fold.info = s.info ?? undefined;
    fold.stalePresence = s.stalePresence;
    fold.usage = UsageTotals.restore(s.usage);
    for (const id of s.openRequests) fold.openRequests.add(id);
    return fold;
  }
}
