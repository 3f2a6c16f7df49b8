import { type Decision, type Role, SHARE_ROLE_SUMMARY, type WhoAmI } from '@tandem/shared';
import { DECISIONS } from './permissions-view.js';

/**
 * What this page may do, from the server's `client:whoami`: the control token opens, watches and
 * drives every session; the view token watches every session; a share opens its one session
 * with its role's rights. The page draws its controls from this, and the server checks every
 * command again anyway.
 */
export interface Access {
  kind: WhoAmI['kind'];
  /** The name the server knows this connection by (a share's name, whatever the form said). */
  name: string;
  /** The role shown on the page: `driver`, `approver` or `viewer`. */
  role: 'driver' | 'approver' | 'viewer';
  /** How the page attaches: an approver watches as `viewer` and still answers permission requests. */
  attachAs: Role;
  /** The one session a share opens (null: any). */
  sessionId: string | null;
  maySend: boolean;
  mayAnswer: boolean;
  /** The answers offered on a permission request: a share may not allow forever (the server refuses it). */
  decisions: readonly Decision[];
  /**
   * Controls this connection may not use: `disabled` (the view token, as the page always showed
   * it: the box and buttons there but greyed) or `hidden` (a share: what it cannot do is not shown).
   */
  unusable: 'disabled' | 'hidden';
  /** One line saying what this connection may do. */
  summary: string;
  /** When the share ends (ISO), if it is a share. */
  expiresAt: string | undefined;
}

const ALL_DECISIONS = DECISIONS.map(({ decision }) => decision);
const SHARE_DECISIONS = ALL_DECISIONS.filter((decision) => decision !== 'allow_forever');

export function accessOf(who: WhoAmI): Access {
  if (who.kind === 'share' && who.share) {
    const { share } = who;
    const maySend = share.rights.includes('send');
    return {
      kind: 'share',
      name: who.name,
      role: share.role,
      attachAs: maySend ? 'driver' : 'viewer',
      sessionId: share.sessionId,
      maySend,
      mayAnswer: share.rights.includes('approve'),
      decisions: SHARE_DECISIONS,
      unusable: 'hidden',
      summary: `${share.role}: ${SHARE_ROLE_SUMMARY[share.role]}`,
      expiresAt: share.expiresAt,
    };
  }
  const control = who.kind === 'control';
  return {
    kind: control ? 'control' : 'view',
    name: who.name,
    role: control ? 'driver' : 'viewer',
    attachAs: control ? 'driver' : 'viewer',
    sessionId: null,
    maySend: control,
    mayAnswer: control,
    decisions: ALL_DECISIONS,
    unusable: 'disabled',
    summary: control
      ? 'control token: you can watch and drive every session on this server'
      : 'view token: you can watch every session on this server; only a driver can send or answer',
    expiresAt: undefined,
  };
}

/** The access line under the transcript: what this connection may do, and until when for a share. */
export function accessText(access: Access): string {
  const end = access.expiresAt ? new Date(access.expiresAt) : null;
  if (!end || Number.isNaN(end.getTime())) return access.summary;
  return `${access.summary} (until ${end.toLocaleString()})`;
}
