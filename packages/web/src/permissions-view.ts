import type { Decision } from '@tandem/shared';
import { type PendingPermission, summarizeArgs } from '@tandem/tui/state';
import { el, replaceChildren } from './element.js';

/** The answers a driver can give, in the order the TUI's dialog offers them. */
export const DECISIONS: ReadonlyArray<{ decision: Decision; label: string }> = [
  { decision: 'allow_once', label: 'Allow once' },
  { decision: 'allow_session', label: 'Allow for this session' },
  { decision: 'allow_forever', label: 'Always allow' },
  { decision: 'deny_once', label: 'Deny' },
  { decision: 'deny_forever', label: 'Always deny' },
];

export type Answer = (request: PendingPermission, decision: Decision) => void;

/**
 * The open permission requests, each with its five answers as buttons
 * (`[data-decision=allow_once]` …). A viewer sees them disabled: only a driver may answer,
 * and the server refuses anyone else anyway. Who answered shows on the tool call afterwards.
 */
export function renderPermissions(container: HTMLElement, pending: readonly PendingPermission[], canAnswer: boolean, answer: Answer): void {
  replaceChildren(
    container,
    ...pending.map((request) => {
      const buttons = DECISIONS.map(({ decision, label }) => {
        const button = el('button', { class: decision.startsWith('deny') ? 'deny' : 'allow', data: { decision } }, label);
        button.type = 'button';
        button.disabled = !canAnswer;
        button.addEventListener('click', () => {
          for (const other of buttons) other.disabled = true;
          answer(request, decision);
        });
        return button;
      });
      return el(
        'div',
        { class: `permission ${request.danger}`, data: { requestId: request.requestId } },
        el('div', { class: 'permission-title' }, `Permission: ${request.tool}`, el('span', { class: `badge ${request.danger}` }, request.danger)),
        el('pre', { class: 'preview' }, request.preview ?? summarizeArgs(request.tool, request.args)),
        el('div', { class: 'decisions' }, ...buttons),
        canAnswer ? null : el('div', { class: 'hint' }, 'Watching with the view token: a driver answers this.'),
      );
    }),
  );
}
