import './style.css';
import './transcript.css';
import type { ClientInfo, SessionInfo } from '@tandem/shared';
import { type PendingPermission, shownItem } from '@tandem/tui/state';
import { type Access, accessText } from './access.js';
import { byId } from './element.js';
import { type AnswerMode, renderPermissions } from './permissions-view.js';
import { renderPresence } from './presence-view.js';
import { renderSessions } from './sessions-view.js';
import { takeLinkRequest } from './share-link.js';
import { connectionText, sessionHeadText, shareEndedText, turnText } from './status-text.js';
import { TranscriptView } from './transcript-view.js';
import { attachTail, Viewer } from './viewer.js';

// The page: a token form (or a share link's token), then the session list and the open
// session's live transcript. Everything the server sends is drawn as text (see element.ts); the
// token stays in memory.

// First of all: a share link's token leaves the address bar (and the history) before anything else runs.
const link = takeLinkRequest(location, history);

const login = byId<HTMLFormElement>('login');
const loginError = byId('login-error');
const app = byId('app');
const connection = byId('connection');
const roleBadge = byId('role');
const sessionsTitle = byId('sessions-title');
const refreshButton = byId<HTMLButtonElement>('refresh');
const sessionList = byId('session-list');
const sessionHead = byId('session-head');
const presenceLine = byId('presence');
const permissions = byId('permissions');
const turnLine = byId('turn');
const endedLine = byId('ended');
const accessLine = byId('access');
const composer = byId<HTMLFormElement>('composer');
const message = composer.elements.namedItem('message') as HTMLTextAreaElement;
const sendButton = byId<HTMLButtonElement>('send');
const stopButton = byId<HTMLButtonElement>('stop');
const transcriptList = byId('transcript');
const transcript = new TranscriptView(transcriptList);

let viewer: Viewer | null = null;
let frame = 0;
let drawnTranscriptOf: string | null = null;
let drawn: { sessions?: unknown; openId?: string | null; pending?: readonly PendingPermission[]; answers?: string; presence?: unknown } = {};

const NOBODY: readonly ClientInfo[] = [];

function scheduleDraw(): void {
  if (frame === 0) frame = requestAnimationFrame(draw);
}

function draw(): void {
  frame = 0;
  const access = viewer?.access;
  if (!viewer || !access) return;
  const state = viewer.state;
  // Before anything around the transcript changes its size: where the reader is in it.
  const reading = drawnTranscriptOf === viewer.openId ? transcript.position() : undefined;
  connection.textContent = connectionText(state);
  connection.dataset.status = state.connection.status;
  const driving = viewer.driving;
  const ended = viewer.ended;
  roleBadge.hidden = state.session === null && !ended;
  roleBadge.textContent = roleText(access);
  roleBadge.dataset.role = access.role;
  roleBadge.dataset.kind = access.kind;
  if (drawn.sessions !== viewer.sessions || drawn.openId !== viewer.openId) {
    const current = viewer;
    const empty = access.sessionId ? 'The shared session is not on this server any more: ask its host.' : undefined;
    const open = (id: string) => {
      if (!current.ended) void current.open(id);
    };
    renderSessions(sessionList, current.sessions, current.openId, open, empty);
  }
  sessionsTitle.textContent = access.sessionId ? 'Shared session' : 'Sessions';
  refreshButton.disabled = ended;
  sessionHead.textContent = sessionHeadText(state);
  // Who is here is unknown once the share ended (or before a session is open).
  const presence = state.session && !ended ? state.presence : NOBODY;
  if (drawn.presence !== presence) renderPresence(presenceLine, presence);
  const answers = answerMode(viewer, access);
  const answersKey = JSON.stringify({ answers, ended });
  if (drawn.pending !== state.pendingPermissions || drawn.answers !== answersKey) {
    const current = viewer;
    // Once the share ended nothing here can be answered or will change: no stale requests.
    renderPermissions(permissions, ended ? [] : state.pendingPermissions, answers, (request, decision) => {
      void current.respond(request.requestId, decision).then((ok) => {
        if (!ok) drawn.pending = undefined; // answer failed: draw the buttons again, enabled
        scheduleDraw();
      });
    });
  }
  turnLine.textContent = ended ? '' : turnText(state);
  endedLine.hidden = !ended;
  endedLine.textContent = ended ? shareEndedText(state) : '';
  accessLine.hidden = ended || state.session === null;
  accessLine.textContent = accessText(access);
  // A share sees no control it may not use; the view token sees them greyed, as it always did.
  composer.hidden = ended || (!access.maySend && access.unusable === 'hidden');
  message.disabled = !driving;
  message.placeholder = driving ? 'Message (Ctrl+Enter sends)' : state.session ? watchingHint(access) : 'Pick a session.';
  sendButton.disabled = !driving;
  stopButton.disabled = !driving || state.turn.phase === 'idle';
  // Last, once the lines around it have their size: a list that was at its bottom ends there.
  // Another session: a fresh list, opened at its bottom (not where the last one was scrolled to).
  if (drawnTranscriptOf !== viewer.openId) transcript.clear();
  drawnTranscriptOf = viewer.openId;
  transcript.update(
    state.items.filter((item) => shownItem(item, state.showHidden)),
    viewer.historyMark,
    reading,
  );
  // Still at the top after a page came (or a transcript too short to scroll): the next page.
  if (viewer.historyMark === 'more' && transcript.nearTop()) void viewer.loadOlder();
  drawn = { sessions: viewer.sessions, openId: viewer.openId, pending: state.pendingPermissions, answers: answersKey, presence };
}

/** The badge in the bar: the token's role, or the share's role and name. */
function roleText(access: Access): string {
  if (access.kind === 'share') return `${access.role} (share: ${access.name})`;
  return access.role === 'driver' ? 'driver' : 'viewer: watching only';
}

function watchingHint(access: Access): string {
  return access.kind === 'view' ? 'Watching with the view token: only a driver can send.' : 'Not attached as driver: only a driver can send.';
}

/** How the open permission requests are drawn for this connection (see AnswerMode). */
function answerMode(current: Viewer, access: Access): AnswerMode {
  if (current.answering) return { kind: 'answer', decisions: access.decisions };
  if (access.unusable === 'hidden') return { kind: 'none', hint: 'The host, a driver or an approver answers this.' };
  return {
    kind: 'disabled',
    hint: access.kind === 'view' ? 'Watching with the view token: a driver answers this.' : 'Not attached as driver: a driver answers this.',
  };
}

login.addEventListener('submit', (event) => {
  event.preventDefault();
  const token = (login.elements.namedItem('token') as HTMLInputElement).value.trim();
  if (!token) return;
  void start(token, false);
});

async function start(token: string, fromLink: boolean): Promise<void> {
  const submit = login.querySelector('button');
  if (submit) submit.disabled = true;
  loginError.textContent = '';
  const name = (login.elements.namedItem('name') as HTMLInputElement).value.trim() || 'web';
  const next = new Viewer({ url: location.origin, token, name, fromLink, onChange: scheduleDraw, tail: attachTail(window.innerHeight) });
  let access: Access;
  try {
    access = await next.ready();
  } catch (err) {
    next.close();
    loginError.textContent = err instanceof Error ? err.message : String(err);
    connection.textContent = 'not connected';
    login.hidden = false;
    if (submit) submit.disabled = false;
    return;
  }
  (login.elements.namedItem('token') as HTMLInputElement).value = '';
  viewer = next;
  login.hidden = true;
  app.hidden = false;
  await next.refreshSessions();
  if (next.openId === null) {
    const target = firstSession(next.sessions, access);
    if (target) await next.open(target);
    if (link.sessionId && !access.sessionId && target !== link.sessionId) {
      next.notice('warn', `session ${link.sessionId} (from the address) is not on this server${target ? '; opened the newest instead' : ''}`);
    }
  }
  scheduleDraw();
}

/** The session to open first: a share's own, else the address's `?session=ID` if listed, else the newest. */
function firstSession(sessions: readonly SessionInfo[], access: Access): string | undefined {
  if (access.sessionId) return access.sessionId;
  if (link.sessionId && sessions.some((session) => session.id === link.sessionId)) return link.sessionId;
  return [...sessions].sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0]?.id;
}

if (link.token) {
  // A share link (or any link with a token): straight to its session, no form.
  connection.textContent = 'opening the shared session…';
  void start(link.token, true);
} else {
  login.hidden = false;
}

composer.addEventListener('submit', (event) => {
  event.preventDefault();
  void send();
});

message.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    void send();
  }
});

async function send(): Promise<void> {
  const text = message.value.trim();
  if (!viewer || !text) return;
  if (await viewer.send(text)) message.value = '';
}

// At the top of the transcript: the page of events before the first one shown.
transcriptList.addEventListener(
  'scroll',
  () => {
    // Only once the open session's transcript is drawn: emptying the list for another session scrolls it to 0 too.
    if (viewer?.historyMark === 'more' && drawnTranscriptOf === viewer.openId && transcript.nearTop()) void viewer.loadOlder();
  },
  { passive: true },
);

stopButton.addEventListener('click', () => void viewer?.cancel());
refreshButton.addEventListener('click', () => void viewer?.refreshSessions());
