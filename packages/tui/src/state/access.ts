import { SHARE_ROLE_SUMMARY, type WhoAmI } from '@tandem/shared';
import { dateTime } from '../panels/time-text.js';
import { notice } from './items.js';
import type { ShareGrantView, ViewState } from './types.js';

/**
 * What this client may do, from the token it came in with (`client:whoami`) and the role it
 * attached as. Until the server said who we are (`tokenKind` null), the attach role decides,
 * as it did before shares existed.
 */

/** Whether this client holds the server's control token (shares, stored permissions, the audit log). */
export function hasControl(state: ViewState): boolean {
  return state.tokenKind === null ? state.role === 'driver' : state.tokenKind === 'control';
}

/** Whether this client may answer permission requests: a driver, or a share with the `approve` right (an approver watches). */
export function canApprove(state: ViewState): boolean {
  return state.role === 'driver' || (state.share?.rights.includes('approve') ?? false);
}

/**
 * The server said who this client is: its token kind, and its name (a share's holder is the
 * share's name, whatever this terminal asked for, so presence leaves out the right one). A share
 * holder is told once what the share lets them do.
 */
export function applyWhoAmI(state: ViewState, whoami: WhoAmI): ViewState {
  const share = shareGrant(whoami);
  const next: ViewState = { ...state, me: whoami.name, tokenKind: whoami.kind, share };
  return share ? notice(next, 'info', shareWelcome(whoami.name, share)) : next;
}

/** The share this connection uses, as the view keeps it. */
export function shareGrant(whoami: WhoAmI): ShareGrantView | null {
  const { share } = whoami;
  return share
    ? { id: share.id, sessionId: share.sessionId, role: share.role, rights: [...share.rights], ...(share.expiresAt ? { expiresAt: share.expiresAt } : {}) }
    : null;
}

/** `approver: you can watch this session and answer its permission requests` */
export function shareSummary(share: ShareGrantView): string {
  return `${share.role}: ${SHARE_ROLE_SUMMARY[share.role]}`;
}

/** The line a share holder reads on attach: who they are here, what they may do, until when. */
export function shareWelcome(name: string, share: ShareGrantView): string {
  const until = share.expiresAt ? ` · the share lasts until ${dateTime(share.expiresAt)}` : '';
  return `you joined as ${name} with a share · ${shareSummary(share)}${until}`;
}

/** What the input line of a viewer says instead of a prompt, for the token this client holds. */
export function inputWatchText(state: ViewState): string {
  if (state.share) {
    return state.share.rights.includes('approve')
      ? `${state.share.role}: you watch this session and answer its permission requests (F2); you cannot send messages`
      : `${state.share.role}: you can watch this session; you cannot send messages`;
  }
  if (state.tokenKind === 'control') return 'watch-only: attached as viewer, you cannot send messages';
  return 'watch-only: attached with the view token, you cannot send messages';
}

/** Why typing does nothing here (a viewer): said for the token this client holds. */
export function watchOnlyText(state: ViewState): string {
  if (state.share) return `${shareSummary(state.share)}; a driver sends messages`;
  if (state.tokenKind === 'control') return 'watch-only: attached as viewer; attach without --viewer to send messages';
  return 'watch-only: attached with the view token; a driver must send messages';
}
