import type { SessionInfo } from '@tandem/shared';
import { dateTime } from './time-text.js';
import type { PanelContent, PanelRow } from './types.js';

/** /sessions (F7): the server's sessions, newest first; Enter switches this terminal to the selected one. */
export function sessionsContent(sessions: readonly SessionInfo[] | undefined, currentId: string | undefined): PanelContent {
  const list = [...(sessions ?? [])].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return {
    title: `sessions · ${list.length} on this server`,
    rows: list.map((session) => sessionRow(session, session.id === currentId)),
    empty: 'no sessions on this server',
    selectable: true,
    actions: [{ key: 'enter', name: 'switch_session', label: 'Enter switch to it' }],
  };
}

/** `* 1a2b3c4d  running  fix the tests  openai/gpt-4.1-mini  2 attached  ~/src/app` (the folder last: it is cut first) */
export function sessionRow(session: SessionInfo, current: boolean): PanelRow {
  const clients = session.clients === undefined ? '' : `${session.clients} attached`;
  const id = session.id.length > 10 ? session.id.slice(0, 8) : session.id;
  return {
    key: session.id,
    text: `${current ? '*' : ' '} ${id}  ${session.status.padEnd(18)} ${clip(session.title || 'untitled', 24).padEnd(24)}  ${session.model.padEnd(24)} ${clients.padEnd(10)}  ${session.cwd}`,
    detail: `${session.id} · created ${dateTime(session.createdAt)} · mode ${session.mode ?? 'ask'}${current ? ' · this terminal is attached to it' : ''}`,
    tone: current ? 'good' : 'normal',
  };
}

function clip(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}
