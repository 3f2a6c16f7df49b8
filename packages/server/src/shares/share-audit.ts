import type { ShareRole } from '@tandem/shared';
import type { AuditLog } from '../audit/audit-log.js';

/** What happened to a share, as its audit record's `decision` says. */
export type ShareStep = 'created' | 'connected' | 'revoked';

/**
 * One audit record per step of a share's life, beside the tool calls: `tool` is `share:<step>`,
 * `callId` the share's id, `decidedBy` who did it (the host who created or revoked it, the share's
 * holder who connected), `args` the share's session, name and role (never its token).
 */
export function recordShareAudit(
  audit: AuditLog | undefined,
  step: ShareStep,
  share: { id: string; sessionId: string; name: string; role: ShareRole; expiresAt?: string },
  by: string,
  extra: Record<string, unknown> = {},
): void {
  audit?.record({
    sessionId: share.sessionId,
    callId: share.id,
    tool: `share:${step}`,
    danger: 'safe',
    args: { share: share.id, name: share.name, role: share.role, ...(share.expiresAt ? { expiresAt: share.expiresAt } : {}), ...extra },
    output: `share ${share.id} (${share.name}, ${share.role}) ${step} by ${by}`,
    isError: false,
    durationMs: 0,
    decision: step,
    decidedBy: by,
    outcome: 'ok',
  });
}
