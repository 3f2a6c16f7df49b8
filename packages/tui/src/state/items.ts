import type { NoticeLevel, ToolItem, TranscriptItem, ViewState } from './types.js';

/** Transcript items kept; older ones fall off the top. */
export const MAX_ITEMS = 1000;

// Small immutable updates of the transcript, shared by the reducer's event handlers.

export function pushItem(state: ViewState, item: TranscriptItem): ViewState {
  const items = state.items.length >= MAX_ITEMS ? state.items.slice(state.items.length - MAX_ITEMS + 1) : state.items.slice();
  items.push(item);
  return { ...state, items };
}

export function notice(state: ViewState, level: NoticeLevel, text: string): ViewState {
  return pushItem(state, { kind: 'notice', level, text });
}

/** Index of the last item matching `predicate`, searching from the end. */
export function findLast(items: TranscriptItem[], predicate: (item: TranscriptItem) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (predicate(items[i] as TranscriptItem)) return i;
  return -1;
}

export function replaceAt(state: ViewState, index: number, item: TranscriptItem): ViewState {
  const items = state.items.slice();
  items[index] = item;
  return { ...state, items };
}

export function updateTool(state: ViewState, callId: string, update: (item: ToolItem) => ToolItem): ViewState {
  const index = findLast(state.items, (item) => item.kind === 'tool' && item.callId === callId);
  if (index < 0) return state;
  return replaceAt(state, index, update(state.items[index] as ToolItem));
}
