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

/** `* 1a2b3c4d  running  openai/gpt-4.1-mini  2 attached  ~/src/app  fix the tests` */
export function sessionRow(session: SessionInfo, current: boolean): PanelRow {
  const clients = session.clients === undefined ? '' : `${session.clients} attached`;
  const id = session.id.length > 10 ? session.id.slice(0, 8) : session.id;
  return {
    key: session.id,
    text: `${current ? '*' : ' '} ${id}  ${session.status.padEnd(18)} ${session.model}  ${clients.padEnd(10)}  ${session.cwd}  ${session.title || 'untitled'}`,
    detail: `${session.id} · created ${dateTime(session.createdAt)} · mode ${session.mode ?? 'ask'}${current ? ' · this terminal is attached to it' : ''}`,
    tone: current ? 'good' : 'normal',
  };
}
