import type { Decision } from '@tandem/shared';
import type { PanelKind } from '../panels/types.js';
import type { ViewState } from '../state/types.js';
import { DECISION_KEYS } from '../views/format-permission.js';
import { printable, type KeyPress } from './line-editor.js';

/** What one key press means, given what is on screen. */
export type KeyIntent =
  | { kind: 'exit' }
  | { kind: 'cancel_turn' }
  | { kind: 'decide'; decision: Decision }
  /** Tab in the permission dialog: offer the next scope for a lasting decision. */
  | { kind: 'next_scope' }
  | { kind: 'scroll'; pages: number }
  | { kind: 'watch_only' }
  | { kind: 'edit' }
  /** F3 jobs · F4 permissions · F5 audit · F6 memory (also /jobs /permissions /audit /memory). */
  | { kind: 'open_panel'; panel: PanelKind }
  /** Ctrl-T: the input line types into the running command, or back to chat. */
  | { kind: 'toggle_command_focus' }
  /** Esc while typing into a command: back to chat. */
  | { kind: 'leave_command_focus' }
  | { kind: 'none' };

/** Function keys that open a panel; they work for viewers too (the panel says what they may not do). */
export const PANEL_KEYS: Readonly<Record<string, PanelKind>> = { f3: 'jobs', f4: 'permissions', f5: 'audit', f6: 'memory' };

/**
 * Ctrl-C cancels the running turn when you drive and a turn runs, otherwise exits; Ctrl-D
 * exits. A pending permission request takes the one-key answers. A viewer cannot type.
 */
export function keyIntent(state: ViewState, key: KeyPress): KeyIntent {
  if (key.ctrl && key.name === 'c') {
    return state.role === 'driver' && state.turn.phase !== 'idle' ? { kind: 'cancel_turn' } : { kind: 'exit' };
  }
  if (key.ctrl && key.name === 'd') return { kind: 'exit' };
  if (key.name === 'pageup') return { kind: 'scroll', pages: -1 };
  if (key.name === 'pagedown') return { kind: 'scroll', pages: 1 };
  const panel = key.name ? PANEL_KEYS[key.name] : undefined;
  if (panel) return { kind: 'open_panel', panel };
  const typed = printable(key);
  if (state.role === 'viewer') {
    if (key.ctrl && key.name === 't') return { kind: 'watch_only' };
    return typed !== null || key.name === 'enter' || key.name === 'backspace' ? { kind: 'watch_only' } : { kind: 'none' };
  }
  if (state.pendingPermissions.length > 0) {
    if (key.name === 'tab') return (state.pendingPermissions[0]?.scopes?.length ?? 0) > 1 ? { kind: 'next_scope' } : { kind: 'none' };
    const decision = typed !== null ? DECISION_KEYS[typed.toLowerCase()] : undefined;
    return decision ? { kind: 'decide', decision } : { kind: 'none' };
  }
  if (key.ctrl && key.name === 't') return { kind: 'toggle_command_focus' };
  if (key.name === 'escape') return state.commandFocus ? { kind: 'leave_command_focus' } : { kind: 'none' };
  return { kind: 'edit' };
}
