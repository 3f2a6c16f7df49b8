import type { PanelContent, PanelRow } from './types.js';

/** Lines of HISTORY.md the panel shows: its tail. */
export const HISTORY_TAIL_LINES = 40;

interface MemoryItemView {
  id: string;
  kind: 'note' | 'profile';
  text: string;
}

/** /memory: MEMORY.md in full, the recall items (when there are any), then the tail of HISTORY.md. */
export function memoryContent(memory: { memory: string; history: string; items?: MemoryItemView[] | undefined } | undefined): PanelContent {
  if (!memory) return { title: 'memory', rows: [], empty: 'loading…', selectable: false, actions: [] };
  const memoryLines = lines(memory.memory);
  const historyLines = lines(memory.history);
  const tail = historyLines.slice(-HISTORY_TAIL_LINES);
  const rows: PanelRow[] = [
    heading('MEMORY.md'),
    ...(memoryLines.length > 0 ? memoryLines.map(text) : [muted('(empty)')]),
    text(''),
    ...itemRows(memory.items ?? []),
    heading(historyLines.length > tail.length ? `HISTORY.md (last ${tail.length} of ${historyLines.length} lines)` : 'HISTORY.md'),
    ...(tail.length > 0 ? tail.map(text) : [muted('(empty)')]),
  ].map((row, index) => ({ ...row, key: String(index) }));
  return { title: 'memory of this workspace', rows, empty: '', selectable: false, actions: [] };
}

function itemRows(items: MemoryItemView[]): PanelRow[] {
  if (items.length === 0) return [];
  const of = (kind: MemoryItemView['kind'], title: string) => {
    const mine = items.filter((i) => i.kind === kind);
    return mine.length === 0 ? [] : [heading(title), ...mine.map((i) => text(`- ${i.text}  (${i.id})`)), text('')];
  };
  return [...of('profile', 'user profile'), ...of('note', 'agent notes')];
}

function lines(markdown: string): string[] {
  const trimmed = markdown
    .replace(/\r\n?/g, '\n')
    .replace(/^\s*\n/, '')
    .trimEnd();
  return trimmed ? trimmed.split('\n') : [];
}

function text(line: string): PanelRow {
  return { key: '', text: line };
}

function heading(line: string): PanelRow {
  return { key: '', text: `── ${line} ──`, tone: 'good' };
}

function muted(line: string): PanelRow {
  return { key: '', text: line, tone: 'muted' };
}
