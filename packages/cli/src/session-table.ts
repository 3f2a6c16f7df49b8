import { homedir } from 'node:os';
import type { SessionInfo } from '@tandem/shared';
import { plainTable } from './plain-table.js';

interface Column {
  title: string;
  value: (session: SessionInfo, home: string) => string;
  /** Longer values keep their end (paths) or their start (the rest), with an ellipsis. */
  max?: number;
  keepEnd?: boolean;
}

const COLUMNS: Column[] = [
  { title: 'ID', value: (session) => session.id },
  { title: 'FOLDER', value: (session, home) => tildePath(session.cwd, home), max: 50, keepEnd: true },
  { title: 'STATUS', value: (session) => (session.status === 'waiting_permission' ? 'waiting' : session.status) },
  { title: 'MODEL', value: (session) => session.model },
  { title: 'MODE', value: (session) => session.mode ?? 'ask' },
  { title: 'CLIENTS', value: (session) => (session.clients === undefined ? '-' : String(session.clients)) },
  { title: 'TITLE', value: (session) => session.title || '-', max: 30 },
];

/**
 * Sessions as a plain, aligned text table, newest first (no trailing spaces); one line saying
 * so when there are none. `waiting` is a turn waiting for a permission answer.
 */
export function formatSessionTable(sessions: SessionInfo[], home = homedir()): string {
  if (sessions.length === 0) return 'no sessions yet; `tandem` opens one for the current folder\n';
  const sorted = [...sessions].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const rows = [COLUMNS.map((column) => column.title), ...sorted.map((session) => COLUMNS.map((column) => cell(column.value(session, home), column)))];
  return plainTable(rows);
}

/** `/home/ana/src/app` as `~/src/app`. */
export function tildePath(path: string, home: string): string {
  if (home && home !== '/' && (path === home || path.startsWith(`${home}/`))) return `~${path.slice(home.length)}`;
  return path;
}

function cell(value: string, column: Column): string {
  const flat = value.replace(/\s+/g, ' ');
  const max = column.max;
  if (!max || flat.length <= max) return flat;
  return column.keepEnd ? `…${flat.slice(flat.length - max + 1)}` : `${flat.slice(0, max - 1)}…`;
}
