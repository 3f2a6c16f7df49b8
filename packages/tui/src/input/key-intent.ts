import type { Decision } from '@tandem/shared';
import type { PanelKind } from '../panels/types.js';
import { canApprove } from '../state/access.js';
import type { ViewState } from '../state/types.js';
import { DECISION_KEYS } from '../views/format-permission.js';
import { printable, type KeyPress } from './line-editor.js';

/** What one key press means, given what is on screen. */
export type KeyIntent =
  | { kind: 'exit' }
  | { kind: 'cancel_turn' }
  /** y s a n d in the permission dialog, only once it has focus. */
  | { kind: 'decide'; decision: Decision }
  /** Tab in the focused permission dialog: offer the next scope for a lasting decision. */
  | { kind: 'next_scope' }
  /** F2, or Enter on an empty input line, while a request waits: give the dialog the keys. */
  | { kind: 'focus_dialog' }
  /** Esc in the focused dialog: keys go to the input line again. */
  | { kind: 'unfocus_dialog' }
  /** Any other key in the focused dialog: say which keys it takes (the key itself does nothing). */
  | { kind: 'dialog_hint' }
  /** y / n (Esc) while a yes/no question (e.g. /clear) waits. */
  | { kind: 'confirm'; yes: boolean }
  /** Shift-Tab: the next approval mode (ask → auto-edit → read-only → ask). */
  | { kind: 'cycle_mode' }
  /** Ctrl-G: compose the input line in $VISUAL / $EDITOR. */
  | { kind: 'compose' }
  | { kind: 'scroll'; pages: number }
  | { kind: 'watch_only' }
  | { kind: 'edit' }
  /** F3 jobs · F4 permissions · F5 audit · F6 memory · F7 sessions · F8 extensions · F9 shares (also /jobs /permissions /audit /memory /sessions /mcp /shares). */
  | { kind: 'open_panel'; panel: PanelKind }
  /** Ctrl-T: the input line types into the running command, or back to chat. */
  | { kind: 'toggle_command_focus' }
  /** Esc while typing into a command: back to chat. */
  | { kind: 'leave_command_focus' }
  /** Ctrl-O (or /workers): show or hide anonymous workers' steps in this terminal. */
  | { kind: 'toggle_hidden' }
  /** Tab after `@…` in the input line: complete an agent name. */
  | { kind: 'complete_mention' }
  | { kind: 'none' };

/** Function keys that open a panel; they work for viewers too (the panel says what they may not do). */
export const PANEL_KEYS: Readonly<Record<string, PanelKind>> = {
  f3: 'jobs',
  f4: 'permissions',
  f5: 'audit',
  f6: 'memory',
  f7: 'sessions',
  f8: 'extensions',
  f9: 'shares',
};

/** What the screen holds besides the view state that decides where a key goes. */
export interface KeyContext {
  /** The permission dialog has focus (given by F2 or Enter on an empty line; see dialog-focus.ts). */
  dialogFocused: boolean;
  /** The input line holds no text. */
  inputEmpty: boolean;
  /** A yes/no question waits (e.g. "clear the conversation?"). */
  confirming: boolean;
  /** The input line has an `@name` being typed at the cursor (Tab completes it). */
  mention?: boolean;
}

const NO_CONTEXT: KeyContext = { dialogFocused: false, inputEmpty: true, confirming: false };

/**
 * Ctrl-C cancels the running turn when you drive and a turn runs, otherwise exits; Ctrl-D
 * exits. A pending permission request takes the one-key answers only while its dialog has
 * focus; until then every key edits the input line as usual. A viewer cannot type; one who
 * may approve (an approver's share) still answers permission requests.
 */
export function keyIntent(state: ViewState, key: KeyPress, context: KeyContext = NO_CONTEXT): KeyIntent {
  if (key.ctrl && key.name === 'c') {
    return state.role === 'driver' && state.turn.phase !== 'idle' ? { kind: 'cancel_turn' } : { kind: 'exit' };
  }
  if (key.ctrl && key.name === 'd') return { kind: 'exit' };
  if (key.name === 'pageup') return { kind: 'scroll', pages: -1 };
  if (key.name === 'pagedown') return { kind: 'scroll', pages: 1 };
  const panel = key.name ? PANEL_KEYS[key.name] : undefined;
  if (panel) return { kind: 'open_panel', panel };
  if (key.ctrl && key.name === 'o') return { kind: 'toggle_hidden' };
  const typed = printable(key);
  if (context.confirming) {
    if (key.name === 'escape') return { kind: 'confirm', yes: false };
    const answer = typed?.toLowerCase();
    if (answer === 'y') return { kind: 'confirm', yes: true };
    if (answer === 'n') return { kind: 'confirm', yes: false };
    return { kind: 'none' };
  }
  const pending = canApprove(state) ? state.pendingPermissions[0] : undefined;
  if (pending && context.dialogFocused) {
    if (key.name === 'escape') return { kind: 'unfocus_dialog' };
    if (key.name === 'tab' && !key.shift) return (pending.scopes?.length ?? 0) > 1 ? { kind: 'next_scope' } : { kind: 'none' };
    const decision = typed !== null ? DECISION_KEYS[typed.toLowerCase()] : undefined;
    return decision ? { kind: 'decide', decision } : { kind: 'dialog_hint' };
  }
  if (state.role === 'viewer') {
    // An approver watches, and answers permission requests: F2 or Enter gives the dialog the keys.
    if (pending && (key.name === 'f2' || key.name === 'enter')) return { kind: 'focus_dialog' };
    if (key.ctrl && key.name === 't') return { kind: 'watch_only' };
    return typed !== null || key.name === 'enter' || key.name === 'backspace' ? { kind: 'watch_only' } : { kind: 'none' };
  }
  if (pending && (key.name === 'f2' || (key.name === 'enter' && context.inputEmpty && !state.commandFocus))) return { kind: 'focus_dialog' };
  if (key.name === 'tab' && key.shift) return { kind: 'cycle_mode' };
  if (key.name === 'tab' && context.mention && !state.commandFocus) return { kind: 'complete_mention' };
  if (key.ctrl && key.name === 'g') return { kind: 'compose' };
  if (key.ctrl && key.name === 't') return { kind: 'toggle_command_focus' };
  if (key.name === 'escape') return state.commandFocus ? { kind: 'leave_command_focus' } : { kind: 'none' };
  return { kind: 'edit' };
}
