import type { ShareInfo } from '@tandem/shared';
import { dateTime, timeLeft } from './time-text.js';
import type { PanelContent, PanelRow } from './types.js';

/** Whether a share still lets its holder in at `now`. */
export type ShareStanding = 'active' | 'expired' | 'revoked';

export function shareStanding(share: ShareInfo, now: number): ShareStanding {
  if (share.revokedAt) return 'revoked';
  if (share.expiresAt && Date.parse(share.expiresAt) <= now) return 'expired';
  return 'active';
}

/**
 * /shares (F9): who was let into this session, with which role, who is connected now, and
 * until when; active shares first, newest first. r revokes the selected one (after a yes/no).
 * Only the control token sees this panel (panel-content.ts says so to anyone else).
 */
export function sharesContent(shares: readonly ShareInfo[] | undefined, now: number): PanelContent {
  const list = [...(shares ?? [])].sort(
    (a, b) => Number(shareStanding(a, now) !== 'active') - Number(shareStanding(b, now) !== 'active') || b.createdAt.localeCompare(a.createdAt),
  );
  const active = list.filter((share) => shareStanding(share, now) === 'active');
  const connected = active.reduce((sum, share) => sum + share.connected, 0);
  return {
    title: `shares of this session · ${active.length} active · ${connected} connected now`,
    rows: list.map((share) => shareRow(share, now)),
    empty: 'nobody has a share of this session: /share [viewer|approver|driver] NAME lets one person in',
    selectable: true,
    actions: [{ key: 'r', name: 'revoke_share', label: 'r revoke' }],
  };
}

/** `carla  approver  1 connected  expires in 23 h 59 m` (or `revoked by ana 2026-12-02 14:03`). */
export function shareRow(share: ShareInfo, now: number): PanelRow {
  const standing = shareStanding(share, now);
  const name = share.name.length > 20 ? `${share.name.slice(0, 19)}…` : share.name;
  const state =
    standing === 'revoked'
      ? `revoked${share.revokedBy ? ` by ${share.revokedBy}` : ''} ${dateTime(share.revokedAt ?? '')}`
      : standing === 'expired'
        ? `expired ${dateTime(share.expiresAt ?? '')}`
        : share.expiresAt
          ? `expires in ${timeLeft(Date.parse(share.expiresAt) - now)}`
          : 'no expiry';
  const connected = standing === 'active' || share.connected > 0 ? `${share.connected} connected` : '';
  return {
    key: share.id,
    text: `${name.padEnd(20)} ${share.role.padEnd(8)}  ${connected.padEnd(12)}  ${state}`,
    detail: `${share.id} · rights ${share.rights.join(', ')} · created ${dateTime(share.createdAt)}${share.createdBy ? ` by ${share.createdBy}` : ''}${share.expiresAt ? ` · until ${dateTime(share.expiresAt)}` : ''}`,
    tone: standing !== 'active' ? 'muted' : share.connected > 0 ? 'good' : 'normal',
  };
}
