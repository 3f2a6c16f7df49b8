import type { Decision } from '@tandem/shared';
import { genericCallSummary } from '@tandem/shared';
import type { PendingPermission } from '@tandem/tui/state';
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
 * How the page shows a request's answers: `answer` (buttons for `decisions`), `disabled` (the
 * buttons greyed, as the view token always saw them), or `none` (a share that may not answer:
 * no buttons, only who will); `hint` says why they cannot be used.
 */
export type AnswerMode = { kind: 'answer'; decisions: readonly Decision[] } | { kind: 'disabled'; hint: string } | { kind: 'none'; hint: string };

/**
 * The open permission requests, each with its answers as buttons
 * (`[data-decision=allow_once]` …). Whoever may not answer sees them disabled or not at all,
 * and the server refuses anyone else anyway. Who answered shows on the tool call afterwards.
 */
export function renderPermissions(container: HTMLElement, pending: readonly PendingPermission[], mode: AnswerMode, answer: Answer): void {
  const offered = mode.kind === 'answer' ? DECISIONS.filter(({ decision }) => mode.decisions.includes(decision)) : mode.kind === 'disabled' ? DECISIONS : [];
  replaceChildren(
    container,
    ...pending.map((request) => {
      const buttons = offered.map(({ decision, label }) => {
        const button = el('button', { class: decision.startsWith('deny') ? 'deny' : 'allow', data: { decision } }, label);
        button.type = 'button';
        button.disabled = mode.kind !== 'answer';
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
        el('pre', { class: 'preview' }, request.preview ?? request.summary ?? genericCallSummary(request.args)),
        buttons.length > 0 ? el('div', { class: 'decisions' }, ...buttons) : null,
        mode.kind === 'answer' ? null : el('div', { class: 'hint' }, mode.hint),
      );
    }),
  );
}
