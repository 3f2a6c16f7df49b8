import { MAX_ITEMS } from './items.js';
import type { OrphanResult, TranscriptItem, ViewState } from './types.js';

/** Results without their call kept at most (a tail rarely starts with more than a turn's worth). */
export const MAX_ORPHAN_RESULTS = 200;

/**
 * Items of an older page of the log (`session:history`), folded on their own, go above the items
 * the view holds. The view keeps at most MAX_ITEMS: past that, the page's oldest items are left out.
 * A call in the page whose result the view already saw (an orphan result) gets that result.
 */
export function prependItems(state: ViewState, older: readonly TranscriptItem[]): ViewState {
  const room = Math.max(0, MAX_ITEMS - state.items.length);
  const kept = older.slice(Math.max(0, older.length - room));
  if (kept.length === 0) return state;
  const orphans = state.orphanResults ?? [];
  if (orphans.length === 0) return { ...state, items: [...kept, ...state.items] };
  const byCall = new Map(orphans.map((orphan) => [orphan.callId, orphan]));
  const items = kept.map((item): TranscriptItem => {
    if (item.kind !== 'tool' || item.status !== 'running') return item;
    const orphan = byCall.get(item.callId);
    if (!orphan) return item;
    byCall.delete(orphan.callId);
    return { ...item, status: orphan.status, durationMs: orphan.durationMs, result: orphan.result };
  });
  return { ...state, items: [...items, ...state.items], orphanResults: [...byCall.values()] };
}

/** A tool_result whose call is not in the view: kept (the newest MAX_ORPHAN_RESULTS) for an older page. */
export function rememberOrphan(state: ViewState, orphan: OrphanResult): ViewState {
  const orphans = [...(state.orphanResults ?? []), orphan];
  return { ...state, orphanResults: orphans.length > MAX_ORPHAN_RESULTS ? orphans.slice(-MAX_ORPHAN_RESULTS) : orphans };
}
