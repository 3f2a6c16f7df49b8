import { dateTime } from './time-text.js';
import type { PanelContent, PanelRow, RewindTurn } from './types.js';

/**
 * /rewind: the turns that can be taken back, newest first; Enter on one undoes it and every turn
 * after it (files and conversation). The row's key is how many turns that is.
 */
export function rewindContent(turns: readonly RewindTurn[] | undefined, role: 'driver' | 'viewer', off?: string): PanelContent {
  if (!turns) return { title: 'rewind', rows: [], empty: 'loading…', selectable: false, actions: [] };
  const newestFirst = [...turns].reverse();
  const rows: PanelRow[] = newestFirst.map((turn, i) => ({
    key: String(i + 1),
    text: `${String(i + 1).padStart(3)} back  ${dateTime(turn.startedAt)}  ${turn.files} file${turn.files === 1 ? '' : 's'} changed${turn.cancelled ? '  (cancelled)' : ''}`,
    detail: `Enter: undo this turn${i > 0 ? ` and the ${i} after it` : ''} (${turn.turnId}): files and conversation`,
    tone: turn.files > 0 ? 'normal' : 'muted',
  }));
  return {
    title: `rewind · ${turns.length} turn${turns.length === 1 ? '' : 's'} kept`,
    rows,
    empty: off ? `checkpoints are off: ${off}` : 'no turn to rewind yet',
    selectable: true,
    actions: role === 'driver' ? [{ key: 'enter', name: 'rewind_to', label: 'Enter rewind to before it' }] : [],
    ...(role === 'driver' ? {} : { note: 'watch-only: a driver rewinds' }),
  };
}
