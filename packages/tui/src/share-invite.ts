import { SHARE_ROLE_SUMMARY, shareAttachLine, shareWebLink, type ShareInfo } from '@tandem/shared';
import { dateTime } from './panels/time-text.js';
import type { CopyLine } from './state/types.js';

/** What `/share` shows: one sentence, the lines to copy, and the web link (what goes to the clipboard). */
export interface ShareInvite {
  text: string;
  copy: CopyLine[];
  link: string;
}

/**
 * The invitation for a new share, from the server URL this TUI uses: the web link
 * `BASE/?session=ID#token=TOKEN` (the token in the fragment, never sent in a request line) and
 * the `tandem attach` line. The token is in this answer only: the sentence says so.
 */
export function shareInvite(serverUrl: string, share: ShareInfo, token: string): ShareInvite {
  const base = serverUrl.replace(/\/+$/, '');
  const link = shareWebLink(base, share.sessionId, token);
  const attach = shareAttachLine(base, share.sessionId, token);
  const until = share.expiresAt ? ` · until ${dateTime(share.expiresAt)}` : '';
  const local = loopback(base) ? ` · ${new URL(base).hostname} reaches only this machine: someone elsewhere needs an address of it they can reach` : '';
  return {
    text: `share for ${share.name}: ${share.role} (${SHARE_ROLE_SUMMARY[share.role]})${until} · the token is shown only this once: copy a line below now${local}`,
    copy: [
      { label: 'web link', text: link },
      { label: 'terminal', text: attach },
      // Short enough never to wrap: what to copy when a narrow terminal breaks the lines above.
      { label: 'token', text: token },
    ],
    link,
  };
}

function loopback(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\./.test(host);
  } catch {
    return false;
  }
}
