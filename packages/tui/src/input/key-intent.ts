import type { Decision } from '@tandem/shared';
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
  | { kind: 'none' };

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
  const typed = printable(key);
  if (state.role === 'viewer') {
    return typed !== null || key.name === 'enter' || key.name === 'backspace' ? { kind: 'watch_only' } : { kind: 'none' };
  }
  if (state.pendingPermissions.length > 0) {
    if (key.name === 'tab') return (state.pendingPermissions[0]?.scopes?.length ?? 0) > 1 ? { kind: 'next_scope' } : { kind: 'none' };
    const decision = typed !== null ? DECISION_KEYS[typed.toLowerCase()] : undefined;
    return decision ? { kind: 'decide', decision } : { kind: 'none' };
  }
  return { kind: 'edit' };
}
