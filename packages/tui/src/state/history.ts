import { MAX_ITEMS } from './items.js';
import type { TranscriptItem, ViewState } from './types.js';

/**
 * Items of an older page of the log (`session:history`), folded on their own, go above the items
 * the view holds. The view keeps at most MAX_ITEMS: past that, the page's oldest items are left out.
 */
export function prependItems(state: ViewState, older: readonly TranscriptItem[]): ViewState {
  const room = Math.max(0, MAX_ITEMS - state.items.length);
  const kept = older.slice(Math.max(0, older.length - room));
  return kept.length === 0 ? state : { ...state, items: [...kept, ...state.items] };
}
