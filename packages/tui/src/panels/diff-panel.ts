import type { PanelContent, PanelRow, TurnDiff } from './types.js';

/** /diff: the last turn's files and its unified diff, coloured (added lines green, removed red, hunks dim); arrows scroll. */
export function diffContent(diff: TurnDiff | undefined): PanelContent {
  if (!diff) return { title: 'diff of the last turn', rows: [], empty: 'loading…', selectable: false, actions: [] };
  const title = `diff of the last turn${diff.turnId ? ` (${diff.turnId})` : ''} · ${diff.files.length} file${diff.files.length === 1 ? '' : 's'} · /undo takes it back`;
  if (diff.files.length === 0) return { title, rows: [], empty: 'the last turn changed no files (or checkpoints are off)', selectable: false, actions: [] };
  const rows: PanelRow[] = [
    ...diff.files.map((f) => ({ key: '', text: `${f.status === 'added' ? 'A' : f.status === 'deleted' ? 'D' : 'M'} ${f.path}`, tone: 'muted' as const })),
    { key: '', text: '' },
    ...diff.diff.replace(/\n$/, '').split('\n').map(diffRow),
  ].map((row, index) => ({ ...row, key: String(index) }));
  return { title, rows, empty: '', selectable: false, actions: [] };
}

function diffRow(line: string): PanelRow {
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('diff ') || line.startsWith('index ')) return { key: '', text: line, tone: 'muted' };
  if (line.startsWith('+')) return { key: '', text: line, tone: 'good' };
  if (line.startsWith('-')) return { key: '', text: line, tone: 'bad' };
  if (line.startsWith('@@')) return { key: '', text: line, tone: 'muted' };
  return { key: '', text: line };
}
