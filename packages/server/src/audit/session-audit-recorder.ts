import { type AuditRecord, type Danger, TURN_END_TYPES, type Usage } from '@tandem/shared';
import type { AuditLog } from './audit-log.js';
import { STANDALONE_DECISIONS, standaloneRecord } from './standalone-decision.js';

type Outcome = NonNullable<AuditRecord['outcome']>;

interface OpenCall {
  turnId?: string;
  /** The agent that made the call. */
  agent?: string;
  tool: string;
  args: unknown;
  danger: Danger;
  /** The tool_call event's time (ms), for the duration of a call the turn ended under. */
  startedAt?: number;
  /** What the model request that asked for this call used (on a reply's first call only). */
  usage?: Usage;
  /** How it was let through so far: announced on its tool_call, or answered (permission_resolved). */
  decision?: string;
  decidedBy?: string;
}

type ObservedEvent = { type: string; [field: string]: unknown };

/** What the permission gate reports about one decision; `call` is the call it decided on. */
export interface DecisionNote {
  callId: string;
  decision: string;
  decidedBy: string;
  allowed?: boolean;
  call?: { turnId?: string; tool: string; args: unknown; danger: Danger };
}

/** Calls whose result never arrives are forgotten past this many, oldest first. */
const MAX_OPEN = 512;
const OUTCOMES: ReadonlySet<string> = new Set<Outcome>(['ok', 'error', 'denied', 'cancelled', 'timeout', 'blocked', 'refused']);
export const ENDED_WITH_TURN = 'cancelled: the turn ended before the call finished';

/**
 * Turns one session's event stream into audit records (requirements P6, U6), a fold over the
 * events alone: `tool_call` opens a call (with its decision when it runs without asking),
 * `permission_resolved` notes a person's answer, and `tool_result` closes it and writes one
 * record with the decision it carries (`not_checked` when no gate saw the call: bad arguments,
 * the path sandbox, the loop guard) and its `outcome`. A call still open when its turn ends
 * (cancelled mid-run, the server interrupted) is recorded then, with outcome `cancelled` and
 * the decision known so far: every call leaves exactly one record.
 *
 * Decisions that never become a tool call (a project MCP server's launch, a command's
 * connection) are recorded as soon as the gate reports them (`noteDecision`): one record each,
 * who decided, what and how.
 *
 * Seam: feed every persisted session event to `observe` (e.g. from the session's `onEvent`
 * hook) and pass `noteDecision` as the permission gate's `onDecision`.
 */
export class SessionAuditRecorder {
  private readonly open = new Map<string, OpenCall>();
  /** Open questions: their call, so an answer reaches the call it was about. */
  private readonly questions = new Map<string, string>();

  constructor(
    private readonly log: AuditLog,
    private readonly sessionId: string,
  ) {}

  /** A decision the gate reports; only those that are no tool call of the turn make a record here. */
  noteDecision(note: DecisionNote): void {
    if (note.call && STANDALONE_DECISIONS.has(note.call.tool)) this.log.record(standaloneRecord(this.sessionId, note, note.call));
  }

  observe(event: ObservedEvent): void {
    // A call of a turn that ended still open never got a result (requirements U6).
    if (TURN_END_TYPES.has(event.type)) {
      this.closeTurn(typeof event.turnId === 'string' ? event.turnId : undefined, timeOf(event));
      return;
    }
    if (event.type === 'permission_resolved') {
      this.answered(event);
      return;
    }
    const callId = typeof event.callId === 'string' ? event.callId : undefined;
    if (!callId) return;
    if (event.type === 'permission_request') {
      if (typeof event.requestId === 'string' && this.open.has(callId)) {
        this.questions.set(event.requestId, callId);
        trim(this.questions);
      }
      return;
    }
    if (event.type === 'tool_call') {
      const call: OpenCall = { tool: String(event.tool), args: event.args, danger: isDanger(event.danger) ? event.danger : 'dangerous' };
      if (typeof event.turnId === 'string') call.turnId = event.turnId;
      if (typeof event.agent === 'string') call.agent = event.agent;
      if (isUsage(event.usage)) call.usage = event.usage;
      const startedAt = timeOf(event);
      if (startedAt !== undefined) call.startedAt = startedAt;
      if (typeof event.decision === 'string') {
        call.decision = event.decision;
        call.decidedBy = typeof event.decidedBy === 'string' ? event.decidedBy : 'system';
      }
      this.open.set(callId, call);
      trim(this.open);
      return;
    }
    if (event.type !== 'tool_result') return;
    const isError = event.isError === true;
    const outcome = typeof event.outcome === 'string' && OUTCOMES.has(event.outcome) ? (event.outcome as Outcome) : isError ? 'error' : 'ok';
    this.write(callId, {
      turnId: typeof event.turnId === 'string' ? event.turnId : undefined,
      tool: String(event.tool),
      output: typeof event.output === 'string' ? event.output : '',
      isError,
      durationMs: typeof event.durationMs === 'number' ? event.durationMs : 0,
      outcome,
      ...(typeof event.decision === 'string' ? { decision: event.decision } : {}),
      ...(typeof event.decidedBy === 'string' ? { decidedBy: event.decidedBy } : {}),
    });
  }

  /** A person's answer (or a stored or session rule's) to a question about an open call. */
  private answered(event: ObservedEvent): void {
    const requestId = typeof event.requestId === 'string' ? event.requestId : undefined;
    const callId = requestId ? this.questions.get(requestId) : undefined;
    if (!requestId || !callId) return;
    this.questions.delete(requestId);
    const call = this.open.get(callId);
    if (!call || typeof event.decision !== 'string') return;
    call.decision = event.decision;
    call.decidedBy = typeof event.by === 'string' ? event.by : 'system';
  }

  /** Records every open call of the turn (every open call when the turn is unknown) as cancelled. */
  private closeTurn(turnId: string | undefined, endedAt: number | undefined): void {
    for (const [callId, call] of [...this.open]) {
      if (turnId !== undefined && call.turnId !== undefined && call.turnId !== turnId) continue;
      const durationMs = endedAt !== undefined && call.startedAt !== undefined ? Math.max(0, endedAt - call.startedAt) : 0;
      this.write(callId, { turnId: call.turnId, tool: call.tool, output: ENDED_WITH_TURN, isError: true, durationMs, outcome: 'cancelled' });
    }
  }

  private write(
    callId: string,
    end: {
      turnId: string | undefined;
      tool: string;
      output: string;
      isError: boolean;
      durationMs: number;
      outcome: Outcome;
      /** The result's own decision; absent: what the call's events said before it ended. */
      decision?: string;
      decidedBy?: string;
    },
  ): void {
    const call = this.open.get(callId);
    this.open.delete(callId);
    const decision = end.decision ?? call?.decision;
    const decidedBy = end.decision !== undefined ? end.decidedBy : call?.decidedBy;
    const turnId = end.turnId ?? call?.turnId;
    this.log.record({
      sessionId: this.sessionId,
      ...(turnId !== undefined ? { turnId } : {}),
      ...(call?.agent !== undefined ? { agent: call.agent } : {}),
      callId,
      tool: call?.tool ?? end.tool,
      danger: call?.danger ?? 'dangerous',
      args: call?.args ?? null,
      output: end.output,
      isError: end.isError,
      durationMs: end.durationMs,
      decision: decision ?? 'not_checked',
      ...(decision !== undefined && decidedBy !== undefined ? { decidedBy } : {}),
      outcome: end.outcome,
      ...(call?.usage ? { usage: call.usage } : {}),
    });
  }
}

function timeOf(event: ObservedEvent): number | undefined {
  const ms = typeof event.ts === 'string' ? Date.parse(event.ts) : NaN;
  return Number.isFinite(ms) ? ms : undefined;
}

function isUsage(v: unknown): v is Usage {
  const u = v as Partial<Usage> | null | undefined;
  return typeof u === 'object' && u !== null && typeof u.inputTokens === 'number' && typeof u.outputTokens === 'number';
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
