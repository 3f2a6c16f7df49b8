import type { SessionInfo } from '@tandem/shared';
import { el, replaceChildren } from './element.js';

/** The session list: one entry per session (`[data-session-id]`), newest first; a click opens it. A share lists its one session. */
export function renderSessions(
  list: HTMLElement,
  sessions: readonly SessionInfo[],
  openId: string | null,
  open: (id: string) => void,
  emptyText = 'No sessions on this server yet. Start one with tandem in a terminal.',
): void {
  const sorted = [...sessions].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  if (sorted.length === 0) {
    replaceChildren(list, el('li', { class: 'empty' }, emptyText));
    return;
  }
  replaceChildren(
    list,
    ...sorted.map((session) => {
      const button = el(
        'button',
        { class: 'session-entry', title: session.cwd },
        el('span', { class: 'title' }, session.title || session.id.slice(0, 8)),
        el('span', { class: `status ${session.status}` }, session.status.replace('_', ' ')),
        el('span', { class: 'cwd' }, session.cwd),
      );
      button.type = 'button';
      button.addEventListener('click', () => open(session.id));
      const item = el('li', { class: session.id === openId ? 'open' : '', data: { sessionId: session.id } }, button);
      if (session.id === openId) button.setAttribute('aria-current', 'true');
      return item;
    }),
  );
}
