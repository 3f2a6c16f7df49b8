/**
 * Who gets the keys while a permission request is pending: the input line or the dialog.
 *
 * The rule (requirements U3): keys typed into the input line never answer a dialog. A new request
 * starts with the input line focused. The dialog takes keys only after a person gives it focus
 * explicitly (F2, or Enter on an empty input line), and only when at least FOCUS_DELAY_MS have
 * passed since it appeared and the input line holds no unsent text. Focus belongs to one
 * request: the next request starts unfocused again, so a doubled key never answers two.
 * Pure: the caller passes the time (an injectable clock), so tests need no waiting.
 */
export const FOCUS_DELAY_MS = 500;

export interface DialogFocus {
  /** The request shown in the dialog, or null when none is pending. */
  requestId: string | null;
  /** When that request first appeared on this screen. */
  shownAt: number;
  focused: boolean;
}

export const NO_DIALOG: DialogFocus = { requestId: null, shownAt: 0, focused: false };

/** Follows the first pending request: a different one starts unfocused, with its own clock. */
export function trackDialog(focus: DialogFocus, requestId: string | undefined, now: number): DialogFocus {
  if (!requestId) return focus.requestId === null ? focus : NO_DIALOG;
  if (focus.requestId === requestId) return focus;
  return { requestId, shownAt: now, focused: false };
}

/** Why the dialog may not take focus now, or null when it may. */
export function focusBlocked(focus: DialogFocus, now: number, inputText: string): string | null {
  if (focus.requestId === null) return 'no permission request is waiting';
  if (inputText.length > 0) return 'the input line has unsent text: send it or clear it (Ctrl-U) first, then F2 answers the request';
  if (now - focus.shownAt < FOCUS_DELAY_MS) return 'the request just appeared: press again to answer it';
  return null;
}

/** Gives the dialog focus if allowed; returns the new focus and, when refused, why. */
export function focusDialog(focus: DialogFocus, now: number, inputText: string): { focus: DialogFocus; refused?: string } {
  const refused = focusBlocked(focus, now, inputText);
  if (refused) return { focus, refused };
  return { focus: { ...focus, focused: true } };
}

export function unfocusDialog(focus: DialogFocus): DialogFocus {
  return focus.focused ? { ...focus, focused: false } : focus;
}

/** What the dialog says about its focus: answering, ready for F2, or why not yet. */
export type DialogFocusView = 'focused' | 'ready' | 'too_soon' | 'input_has_text';

export function dialogFocusView(focus: DialogFocus, now: number, inputText: string): DialogFocusView {
  if (focus.focused) return 'focused';
  if (inputText.length > 0) return 'input_has_text';
  if (now - focus.shownAt < FOCUS_DELAY_MS) return 'too_soon';
  return 'ready';
}
