import type { ApprovalMode, EventBody } from '@tandem/shared';
import { systemClock, type Clock } from '@tandem/ai';
import type { ToolGate } from '@tandem/core';
import type { AuditLog } from '../audit/audit-log.js';
import { SessionAuditRecorder } from '../audit/session-audit-recorder.js';
import { createCallRateLimitGate, type CallRateLimitOptions } from '../rate-limit/call-rate-limit.js';
import { composeGates } from './compose-gates.js';
import { PermissionBroker } from './permission-broker.js';
import { createPermissionGate, type BlacklistCheck, type GateDecision } from './permission-gate.js';
import type { PermissionStore } from './permission-store.js';
import { SessionRuleSet } from './session-rules.js';

export interface SessionGuardsOptions {
  sessionId: string;
  /** The session's workspace (its cwd). */
  workspace: string;
  /** The session's `emit`: stamps, logs and broadcasts (permission and rate-limit events). */
  emit(body: EventBody): void;
  /** The server's one store (`PermissionStore.open({ dataDir })`), shared by all sessions. */
  store: PermissionStore;
  /** the coding tools' `checkCommandBlacklist`. */
  blacklist: BlacklistCheck;
  /** The server's one audit log; without it nothing is recorded. */
  audit?: AuditLog;
  clock?: Clock;
  /** requirements P2 timeout (default 60 s). */
  permissionTimeoutMs?: number;
  rateLimit?: Pick<CallRateLimitOptions, 'maxCalls' | 'windowMs' | 'identicalCooldownMs'>;
  /** The session's approval mode, read at every call (default `ask`). */
  mode?: () => ApprovalMode;
  /** The read-only command list (requirements U4), read at every call; absent: every command is decided by rules or asks. */
  readOnlyCommands?: readonly string[] | (() => readonly string[] | undefined);
  onWarning?(message: string): void;
}

export interface SessionGuards {
  /** The session's ToolGate: blacklist → permissions (may ask) → rate limit. */
  gate: ToolGate;
  /**
   * The permission step alone (no rate limit): for questions that are not tool calls of the
   * model but go the same way (a command's connection, `tool: "network"`).
   */
  permissions: ToolGate;
  /** Answers from `permission:respond` go to `broker.respond(requestId, decision, scope, clientName)`. */
  broker: PermissionBroker;
  sessionRules: SessionRuleSet;
  /** Feed every persisted session event to `recorder.observe` (absent without an audit log). */
  recorder?: SessionAuditRecorder;
  /** Ends open permission questions (session closing). */
  close(): void;
}

/**
 * Everything one session needs between a validated tool call and its execution, wired in the
 * order ARCHITECTURE gives: blacklist, stored and session decisions, the question to drivers,
 * then the rate limiter; each decision is reported to the audit recorder.
 */
export function createSessionGuards(options: SessionGuardsOptions): SessionGuards {
  const clock = options.clock ?? systemClock;
  const broker = new PermissionBroker({
    emit: options.emit,
    clock,
    ...(options.permissionTimeoutMs !== undefined ? { timeoutMs: options.permissionTimeoutMs } : {}),
  });
  const sessionRules = new SessionRuleSet();
  const recorder = options.audit ? new SessionAuditRecorder(options.audit, options.sessionId) : undefined;
  const permissions = createPermissionGate({
    broker,
    store: options.store,
    workspace: options.workspace,
    sessionRules,
    blacklist: options.blacklist,
    onDecision: (d: GateDecision) => recorder?.noteDecision(d),
    ...(options.mode ? { mode: options.mode } : {}),
    ...(options.readOnlyCommands ? { readOnlyCommands: options.readOnlyCommands } : {}),
    ...(options.onWarning ? { onWarning: options.onWarning } : {}),
  });
  const rateLimit = createCallRateLimitGate({ clock, emit: options.emit, ...options.rateLimit });
  const guards: SessionGuards = {
    gate: composeGates(permissions, rateLimit),
    permissions,
    broker,
    sessionRules,
    close: () => broker.closeAll(),
  };
  if (recorder) guards.recorder = recorder;
  return guards;
}
