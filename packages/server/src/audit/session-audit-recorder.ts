import type { Danger } from '@tandem/shared';
import type { AuditLog } from './audit-log.js';

interface OpenCall {
  turnId?: string;
  tool: string;
  args: unknown;
  danger: Danger;
}

type ObservedEvent = { type: string; [field: string]: unknown };

/** Calls whose result never arrives are forgotten past this many, oldest first. */
const MAX_OPEN = 512;

/**
 * Turns one session's event stream into audit records: `tool_call` opens a call,
 * `tool_result` closes it and writes one record with the decision the permission gate reported
 * for that call (`noteDecision`). A call the gate never saw (refused before it, or no gate) is
 * recorded with decision `not_checked`.
 *
 * Seam: feed every persisted session event to `observe` (e.g. from the session's `onEvent`
 * hook) and pass `noteDecision` as the permission gate's `onDecision`.
 */
export class SessionAuditRecorder {
  private readonly open = new Map<string, OpenCall>();
  private readonly decisions = new Map<string, { decision: string; decidedBy: string }>();

  constructor(
    private readonly log: AuditLog,
    private readonly sessionId: string,
  ) {}

  noteDecision(note: { callId: string; decision: string; decidedBy: string }): void {
    this.decisions.set(note.callId, { decision: note.decision, decidedBy: note.decidedBy });
    trim(this.decisions);
  }

  observe(event: ObservedEvent): void {
    const callId = typeof event.callId === 'string' ? event.callId : undefined;
    if (!callId) return;
    if (event.type === 'tool_call') {
      const call: OpenCall = { tool: String(event.tool), args: event.args, danger: isDanger(event.danger) ? event.danger : 'dangerous' };
      if (typeof event.turnId === 'string') call.turnId = event.turnId;
      this.open.set(callId, call);
      trim(this.open);
      return;
    }
    if (event.type !== 'tool_result') return;
    const call = this.open.get(callId);
    const decided = this.decisions.get(callId);
    this.open.delete(callId);
    this.decisions.delete(callId);
    this.log.record({
      sessionId: this.sessionId,
      ...(typeof event.turnId === 'string' ? { turnId: event.turnId } : call?.turnId ? { turnId: call.turnId } : {}),
      callId,
      tool: call?.tool ?? String(event.tool),
      danger: call?.danger ?? 'dangerous',
      args: call?.args ?? null,
      output: typeof event.output === 'string' ? event.output : '',
      isError: event.isError === true,
      durationMs: typeof event.durationMs === 'number' ? event.durationMs : 0,
      decision: decided?.decision ?? 'not_checked',
      ...(decided ? { decidedBy: decided.decidedBy } : {}),
    });
  }
}

function isDanger(v: unknown): v is Danger {
  return v === 'safe' || v === 'medium' || v === 'dangerous';
}

function trim<K, V>(map: Map<K, V>): void {
  while (map.size > MAX_OPEN) {
    const oldest = map.keys().next();
    if (oldest.done) return;
    map.delete(oldest.value);
  }
}
