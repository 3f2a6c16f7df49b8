import { Commands, SHARE_ROLE_SUMMARY, type CommandName, type SessionInfo } from '@tandem/shared';
import type { ShareGrant } from '../auth.js';

/**
 * Why a share's holder may not send this command, or undefined when it may: the command must be
 * open to one of the share's rights (commands.ts `share`), be about the share's own session, and
 * an attach as driver or a lasting allow needs more than watching. Every refusal says what the
 * share allows.
 */
export function shareRefusal(name: CommandName, payload: Record<string, unknown>, share: ShareGrant): string | undefined {
  const right = Commands[name].share;
  const allows = `this share (${share.role} of session ${share.sessionId}) allows: ${SHARE_ROLE_SUMMARY[share.role]}`;
  if (!right || !share.rights.includes(right)) return `${name} is not open to a ${share.role} share; ${allows}`;
  const sessionId = payload.sessionId;
  if (typeof sessionId === 'string' && sessionId !== share.sessionId) {
    return `this share opens session ${share.sessionId} only, not ${sessionId}; ${allows}`;
  }
  if (name === 'session:attach' && payload.role === 'driver' && !share.rights.includes('send')) {
    return `a ${share.role} share attaches as viewer, not driver; ${allows}`;
  }
  if (name === 'permission:respond' && payload.decision === 'allow_forever') {
    return 'a share may allow a call once or for this session; a lasting rule for the workspace (allow_forever) is for the host';
  }
  return undefined;
}

/** A share lists only its own session. */
export function scopeSessionList(sessions: SessionInfo[], share: ShareGrant): SessionInfo[] {
  return sessions.filter((session) => session.id === share.sessionId);
}
