import { SHARE_ROLE_SUMMARY, type SessionInfo, type ShareInfo } from '@tandem/shared';
import { plainTable } from './plain-table.js';
import { untilText } from './share-duration.js';

/** What `tandem share` prints for people (the token appears here and nowhere else, ever). */
export function formatCreatedShare(input: {
  share: ShareInfo;
  session: SessionInfo;
  token: string;
  url: string;
  attach: string;
  duration: string;
  notes: string[];
}): string {
  const { share, session, token, url, attach, duration, notes } = input;
  const lines = [
    `shared session ${session.id.slice(0, 8)} (${session.title || 'untitled'}, ${session.cwd}) with ${share.name} as ${share.role}: ${SHARE_ROLE_SUMMARY[share.role].replace(/^you/, 'they')}`,
    `expires ${share.expiresAt ?? '-'} (${duration}); revoke it at any time with: tandem share revoke ${share.id}`,
    '',
    `  web link:  ${url}`,
    `  terminal:  ${attach}`,
    `  token:     ${token}`,
    '',
    'The token is shown only now: send the link (or the line) to them; Tandem keeps only its hash.',
    ...notes.map((note) => `note: ${note}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** `tandem share ls`: one line per share, newest last. */
export function formatShareTable(shares: ShareInfo[], nowMs = Date.now()): string {
  if (shares.length === 0) return "no shares; `tandem share` lets someone into this folder's session\n";
  const rows = [
    ['ID', 'SESSION', 'NAME', 'ROLE', 'STATE', 'CONNECTED', 'EXPIRES'],
    ...shares.map((share) => [
      share.id,
      share.sessionId.slice(0, 8),
      share.name,
      share.role,
      share.revokedAt ? `revoked by ${share.revokedBy ?? '?'}` : share.expiresAt && Date.parse(share.expiresAt) <= nowMs ? 'expired' : 'active',
      String(share.connected),
      share.revokedAt ? '-' : share.expiresAt ? `${share.expiresAt} (${untilText(share.expiresAt, nowMs)})` : '-',
    ]),
  ];
  return plainTable(rows);
}
