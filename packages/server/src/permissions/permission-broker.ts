import { randomUUID } from 'node:crypto';
import type { Danger, Decision, EventBody, EventOf } from '@tandem/shared';
import { startTimer, systemClock, type Clock } from '@tandem/ai';

export const DEFAULT_PERMISSION_TIMEOUT_MS = 60_000;

/** What the gate asks about one tool call. */
export interface PermissionQuestion {
  callId: string;
  tool: string;
  args: unknown;
  danger: Danger;
  /** The stored-decision scopes offered, narrowest first (may be empty). */
  scopes: string[];
  preview: string;
  /** The call's one-line summary, shown in lists and notices. */
  summary?: string;
}

/** How a question ended. `cancelled`: the turn was aborted while it waited. */
export interface PermissionAnswer {
  requestId: string;
  decision: Decision;
  by: string;
  scope?: string;
  reason: 'answered' | 'timeout' | 'cancelled';
}

export type PendingPermission = Omit<EventOf<'permission_request'>, 'sessionId' | 'seq' | 'ts' | 'ephemeral'>;

export type RespondResult = { ok: true } | { ok: false; error: 'not_found' | 'conflict' | 'bad_request'; message: string };

export interface PermissionBrokerOptions {
  /** Appends an event to the session (stamped, logged, broadcast to every attached client). */
  emit(body: EventBody): void;
  clock?: Clock;
  /** requirements P2: no answer within this is an automatic deny (default 60 s). */
  timeoutMs?: number;
  newId?: () => string;
}

interface Waiting {
  request: PendingPermission;
  settle(answer: PermissionAnswer): void;
}

/** How many answered request ids are remembered to tell `conflict` from `not_found`. */
const REMEMBERED_ANSWERS = 256;

/**
 * One session's open permission questions (requirements P2). Asking emits `permission_request` to every
 * attached client; any driver may answer (the socket handler checks the role); the first answer
 * wins and everyone sees `permission_resolved` with who decided. A request is session state:
 * `pending()` lists it for a client that attaches later. No answer in time → `deny_once` by
 * `system`, reason `timeout`.
 */
export class PermissionBroker {
  private readonly waiting = new Map<string, Waiting>();
  private readonly answered = new Map<string, string>();
  private readonly emit: (body: EventBody) => void;
  private readonly clock: Clock;
  private readonly timeoutMs: number;
  private readonly newId: () => string;

  constructor(options: PermissionBrokerOptions) {
    this.emit = options.emit;
    this.clock = options.clock ?? systemClock;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_PERMISSION_TIMEOUT_MS;
    this.newId = options.newId ?? randomUUID;
  }

  /** The timeout as a person reads it: `60 s`, `0.3 s`. */
  get timeoutText(): string {
    const seconds = this.timeoutMs / 1000;
    return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
  }

  /** Asks attached drivers and waits for the first answer, the timeout, or `signal`. */
  ask(question: PermissionQuestion, signal: AbortSignal): Promise<PermissionAnswer> {
    const requestId = this.newId();
    const request: PendingPermission = {
      type: 'permission_request',
      requestId,
      callId: question.callId,
      tool: question.tool,
      args: question.args,
      danger: question.danger,
      expiresAt: new Date(this.clock.now() + this.timeoutMs).toISOString(),
      scopes: question.scopes,
      preview: question.preview,
      ...(question.summary !== undefined ? { summary: question.summary } : {}),
    };
    return new Promise<PermissionAnswer>((resolve) => {
      let stopTimer: (() => void) | undefined;
      const onAbort = () => this.finish(requestId, { requestId, decision: 'deny_once', by: 'system', reason: 'cancelled' });
      this.waiting.set(requestId, {
        request,
        settle: (answer) => {
          stopTimer?.();
          signal.removeEventListener('abort', onAbort);
          resolve(answer);
        },
      });
      try {
        this.emit(request);
      } catch (error) {
        this.waiting.delete(requestId);
        throw error;
      }
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      stopTimer = startTimer(this.clock, this.timeoutMs, () => this.finish(requestId, { requestId, decision: 'deny_once', by: 'system', reason: 'timeout' }));
    });
  }

  /** A driver's answer. The first one wins; later ones get `conflict`; an unknown id `not_found`. */
  respond(requestId: string, decision: Decision, scope: string | undefined, clientName: string): RespondResult {
    const entry = this.waiting.get(requestId);
    if (!entry) {
      const earlier = this.answered.get(requestId);
      if (earlier) return { ok: false, error: 'conflict', message: `permission request ${requestId} was already resolved: ${earlier}` };
      return { ok: false, error: 'not_found', message: `no open permission request ${requestId} in this session` };
    }
    const offered = entry.request.scopes ?? [];
    if (scope !== undefined && !offered.includes(scope)) {
      const list = offered.length ? offered.map((s) => JSON.stringify(s)).join(', ') : 'none (this tool decides once)';
      return { ok: false, error: 'bad_request', message: `scope ${JSON.stringify(scope)} was not offered for this request; offered: ${list}` };
    }
    const answer: PermissionAnswer = { requestId, decision, by: clientName, reason: 'answered' };
    const lasting = decision !== 'allow_once' && decision !== 'deny_once';
    const chosen = scope ?? offered[0];
    if (lasting && chosen !== undefined) answer.scope = chosen;
    this.finish(requestId, answer);
    return { ok: true };
  }

  /** Open requests, oldest first, as the `permission_request` bodies that announced them. */
  pending(): PendingPermission[] {
    return [...this.waiting.values()].map((w) => w.request);
  }

  /** Ends every open request as expired (the session is closing): nothing stays approved by accident. */
  closeAll(): void {
    for (const requestId of [...this.waiting.keys()]) {
      this.finish(requestId, { requestId, decision: 'deny_once', by: 'system', reason: 'cancelled' });
    }
  }

  private finish(requestId: string, answer: PermissionAnswer): void {
    const entry = this.waiting.get(requestId);
    if (!entry) return;
    this.waiting.delete(requestId);
    this.remember(requestId, `${answer.decision} by ${answer.by} (${answer.reason})`);
    const resolved: EventBody = {
      type: 'permission_resolved',
      requestId,
      decision: answer.decision,
      by: answer.by,
      reason: answer.reason === 'cancelled' ? 'expired' : answer.reason,
    };
    if (answer.scope !== undefined) resolved.scope = answer.scope;
    try {
      this.emit(resolved);
    } finally {
      entry.settle(answer);
    }
  }

  private remember(requestId: string, summary: string): void {
    this.answered.set(requestId, summary);
    if (this.answered.size > REMEMBERED_ANSWERS) {
      const oldest = this.answered.keys().next().value;
      if (oldest !== undefined) this.answered.delete(oldest);
    }
  }
}
