import type { SessionInfo } from '@tandem/shared';

const COLUMNS: Array<{ title: string; value: (session: SessionInfo) => string; max?: number }> = [
  { title: 'ID', value: (session) => session.id },
  { title: 'TITLE', value: (session) => session.title || '-', max: 30 },
  { title: 'CWD', value: (session) => session.cwd, max: 50 },
  { title: 'MODEL', value: (session) => session.model },
  { title: 'STATUS', value: (session) => session.status },
  { title: 'LAST SEQ', value: (session) => String(session.lastSeq) },
];

/** Sessions as a plain, aligned text table, newest first; one line saying so when there are none. */
export function formatSessionTable(sessions: SessionInfo[]): string {
  if (sessions.length === 0) return 'no sessions yet; `tandem` opens one for the current directory\n';
  const sorted = [...sessions].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const rows = [COLUMNS.map((column) => column.title), ...sorted.map((session) => COLUMNS.map((column) => cell(column.value(session), column.max)))];
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  return rows.map((row) => row.map((value, i) => (i === row.length - 1 ? value : value.padEnd(widths[i] ?? 0))).join('  ').trimEnd()).join('\n') + '\n';
}

function cell(value: string, max?: number): string {
  const flat = value.replace(/\s+/g, ' ');
  return max && flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
