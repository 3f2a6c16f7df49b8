import type { ApprovalMode, EventBody, SessionEvent } from '@tandem/shared';
import type { ToolGate } from '@tandem/core';
import { DEFAULT_READ_ONLY_COMMANDS, checkCommandBlacklist } from '@tandem/coding-tools';
import { systemClock, type Clock } from '@tandem/ai';
import { AuditLog } from '../audit/audit-log.js';
import type { Env } from '../audit/audit-masker.js';
import { auditHandlers } from '../handlers/audit-handlers.js';
import type { HandlerMap } from '../handlers/dispatch.js';
import { permissionHandlers } from '../handlers/permission-handlers.js';
import type { CallRateLimitOptions } from '../rate-limit/call-rate-limit.js';
import { createConnectionLimiter, type ConnectionLimiter, type ConnectionLimiterOptions } from '../rate-limit/connection-limiter.js';
import type { BlacklistCheck } from './permission-gate.js';
import { PermissionStore } from './permission-store.js';
import { createSessionGuards, type SessionGuards } from './session-guards.js';

/** What the guards need of a session (the server's `Session` fits). */
export interface GuardedSession {
  readonly id: string;
  /** Read at every call: a changed `mode` (session:configure) applies to the next call. */
  readonly meta: { cwd: string; mode?: ApprovalMode };
  emit(body: EventBody): unknown;
  onClose(fn: () => Promise<void>): void;
}

export interface GuardsHostOptions {
  dataDir: string;
  clock?: Clock;
  /** Default: the coding tools' `checkCommandBlacklist`. */
  blacklist?: BlacklistCheck;
  permissionTimeoutMs?: number;
  /**
   * Commands that run without asking (requirements U4; config.json `readOnlyCommands`). Default
   * `DEFAULT_READ_ONLY_COMMANDS`; `[]` turns it off. A function is read at every call.
   */
  readOnlyCommands?: readonly string[] | (() => readonly string[] | undefined);
  rateLimit?: Pick<CallRateLimitOptions, 'maxCalls' | 'windowMs' | 'identicalCooldownMs'>;
  connectionLimit?: Omit<ConnectionLimiterOptions, 'clock'>;
  /** Whose secret values the audit log masks (default process.env). */
  auditEnv?: Env;
  /** Told about trouble that did not stop anything (a file that could not be written…). */
  onWarning?(message: string): void;
}

/**
 * The server-side guard rails in one place, shaped for `createApplication`'s seams: the
 * per-session gate (`gateFactory`, its `seams.gate`), `hooks`, `handlers` (permission:respond,
 * audit:query, permissions:list, permissions:revoke) and the per-connection limiter
 * (`commandLimiterFactory`, its `seams.commandLimiter`). One permission store and one audit log
 * per server; one broker, rule set, rate limiter and audit recorder per session.
 */
export interface GuardsHost {
  store: PermissionStore;
  audit: AuditLog;
  gateFactory(session: GuardedSession): ToolGate;
  hooks: { onEvent(session: GuardedSession, event: SessionEvent): void };
  handlers: HandlerMap;
  commandLimiterFactory(): ConnectionLimiter;
  guardsFor(sessionId: string): SessionGuards | undefined;
  /** Flushes and closes the audit log (call after the application closed). */
  close(): Promise<void>;
}

export async function openGuardsHost(options: GuardsHostOptions): Promise<GuardsHost> {
  const clock = options.clock ?? systemClock;
  const warn = (message: string) => options.onWarning?.(message);
  const store = await PermissionStore.open({ dataDir: options.dataDir, clock });
  store.warnings.forEach(warn);
  const audit = await AuditLog.open({
    dataDir: options.dataDir,
    clock,
    onError: warn,
    ...(options.auditEnv ? { env: options.auditEnv } : {}),
  });
  if (audit.skippedOnLoad > 0) warn(`skipped ${audit.skippedOnLoad} unreadable line(s) in ${audit.file}`);
  const sessions = new Map<string, SessionGuards>();
  const blacklist = options.blacklist ?? ((command: string, context?: { workspace?: string }) => checkCommandBlacklist(command, context ?? {}));

  const handlers: HandlerMap = {
    ...permissionHandlers(store, (sessionId) => sessions.get(sessionId)),
    ...auditHandlers(audit),
  };

  return {
    store,
    audit,
    handlers,
    gateFactory(session) {
      const guards = createSessionGuards({
        sessionId: session.id,
        workspace: session.meta.cwd,
        emit: (body) => void session.emit(body),
        store,
        blacklist,
        audit,
        clock,
        onWarning: warn,
        mode: () => session.meta.mode ?? 'ask',
        readOnlyCommands: options.readOnlyCommands ?? DEFAULT_READ_ONLY_COMMANDS,
        ...(options.permissionTimeoutMs !== undefined ? { permissionTimeoutMs: options.permissionTimeoutMs } : {}),
        ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
      });
      sessions.set(session.id, guards);
      session.onClose(async () => {
        guards.close();
        sessions.delete(session.id);
      });
      return guards.gate;
    },
    hooks: {
      onEvent(session, event) {
        sessions.get(session.id)?.recorder?.observe(event);
      },
    },
    commandLimiterFactory: () => createConnectionLimiter({ ...options.connectionLimit, clock }),
    guardsFor: (sessionId) => sessions.get(sessionId),
    close: () => audit.close(),
  };
}
