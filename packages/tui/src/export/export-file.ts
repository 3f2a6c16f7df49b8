import type { SessionInfo } from '@tandem/shared';

/** `tandem-fix-the-login-bug-20260102-1530.md`: the session's title (or id) and the time, safe as a file name. */
export function exportFileName(session: Pick<SessionInfo, 'id' | 'title'>, format: 'md' | 'json', now = new Date()): string {
  const slug =
    session.title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || session.id.slice(0, 8);
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}`;
  return `tandem-${slug}-${stamp}.${format}`;
}
