import type { ClientInfo } from '@tandem/shared';
import { el, replaceChildren } from './element.js';

/**
 * Who is in the open session: each person's name and role (`[data-client-role]`), a share's
 * holder with its share role (viewer, approver, driver) and marked as a share.
 */
export function renderPresence(line: HTMLElement, clients: readonly ClientInfo[]): void {
  if (clients.length === 0) {
    replaceChildren(line);
    return;
  }
  const people = clients.map((client, index) => {
    const role = client.shareRole ?? client.role;
    const marks = client.shareRole ? `${role}, share` : role;
    return el(
      'span',
      {
        class: `person${client.shareRole ? ' shared' : ''}`,
        title: client.shareRole ? `${client.name} came in with a share link (${client.shareRole})` : `${client.name} uses a server token (${client.role})`,
        data: { clientRole: role, clientName: client.name },
      },
      index > 0 ? ', ' : null,
      el('span', { class: 'name' }, client.name),
      ` (${marks})`,
    );
  });
  replaceChildren(line, el('span', { class: 'label' }, 'Here: '), ...people);
}
