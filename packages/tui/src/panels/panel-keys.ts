import type { KeyPress } from '../input/line-editor.js';
import type { PanelAction, PanelContent } from './types.js';

/** What a key does while a panel is open (the panel takes every key but Ctrl-C / Ctrl-D). */
export type PanelIntent =
  | { kind: 'close' }
  | { kind: 'move'; to: 'up' | 'down' | 'page_up' | 'page_down' | 'first' | 'last' }
  | { kind: 'action'; action: PanelAction }
  | { kind: 'refresh' }
  | { kind: 'none' };

export function panelKey(key: KeyPress, content: PanelContent): PanelIntent {
  if (key.name === 'escape' || (!key.ctrl && key.ch === 'q')) return { kind: 'close' };
  switch (key.name) {
    case 'up':
      return { kind: 'move', to: 'up' };
    case 'down':
      return { kind: 'move', to: 'down' };
    case 'pageup':
      return { kind: 'move', to: 'page_up' };
    case 'pagedown':
      return { kind: 'move', to: 'page_down' };
    case 'home':
      return { kind: 'move', to: 'first' };
    case 'end':
      return { kind: 'move', to: 'last' };
  }
  if (key.ctrl || key.meta) return { kind: 'none' };
  if (key.name === 'enter') {
    const onEnter = content.actions.find((candidate) => candidate.key === 'enter');
    return onEnter ? { kind: 'action', action: onEnter } : { kind: 'none' };
  }
  if (key.ch === 'g') return { kind: 'refresh' };
  const action = content.actions.find((candidate) => candidate.key === key.ch);
  return action ? { kind: 'action', action } : { kind: 'none' };
}

/** The selection (or first row shown) after a move, kept inside the list. */
export function moveSelection(selected: number, to: Extract<PanelIntent, { kind: 'move' }>['to'], rows: number, page: number): number {
  const last = Math.max(0, rows - 1);
  const step = Math.max(1, page);
  const next =
    to === 'up'
      ? selected - 1
      : to === 'down'
        ? selected + 1
        : to === 'page_up'
          ? selected - step
          : to === 'page_down'
            ? selected + step
            : to === 'first'
              ? 0
              : last;
  return Math.min(last, Math.max(0, next));
}
