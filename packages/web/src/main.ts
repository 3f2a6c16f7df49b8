import './style.css';
import './transcript.css';
import { type PendingPermission, shownItem } from '@tandem/tui/state';
import { byId } from './element.js';
import { renderPermissions } from './permissions-view.js';
import { renderSessions } from './sessions-view.js';
import { connectionText, sessionHeadText, turnText } from './status-text.js';
import { TranscriptView } from './transcript-view.js';
import { attachTail, Viewer } from './viewer.js';

// The page: a token form, then the session list and the open session's live transcript.
// Everything the server sends is drawn as text (see element.ts); the token stays in memory.

const login = byId<HTMLFormElement>('login');
const loginError = byId('login-error');
const app = byId('app');
const connection = byId('connection');
const roleBadge = byId('role');
const sessionList = byId('session-list');
const sessionHead = byId('session-head');
const permissions = byId('permissions');
const turnLine = byId('turn');
const composer = byId<HTMLFormElement>('composer');
const message = composer.elements.namedItem('message') as HTMLTextAreaElement;
const sendButton = byId<HTMLButtonElement>('send');
const stopButton = byId<HTMLButtonElement>('stop');
const transcriptList = byId('transcript');
const transcript = new TranscriptView(transcriptList);

let viewer: Viewer | null = null;
let frame = 0;
let drawnTranscriptOf: string | null = null;
let drawn: { sessions?: unknown; openId?: string | null; pending?: readonly PendingPermission[]; driving?: boolean } = {};

function scheduleDraw(): void {
  if (frame === 0) frame = requestAnimationFrame(draw);
}

function draw(): void {
  frame = 0;
  if (!viewer) return;
  const state = viewer.state;
  connection.textContent = connectionText(state);
  connection.dataset.status = state.connection.status;
  const driving = viewer.driving;
  roleBadge.hidden = state.session === null;
  roleBadge.textContent = driving ? 'driver' : 'viewer: watching only';
  roleBadge.dataset.role = driving ? 'driver' : 'viewer';
  if (drawn.sessions !== viewer.sessions || drawn.openId !== viewer.openId) {
    const current = viewer;
    renderSessions(sessionList, current.sessions, current.openId, (id) => void current.open(id));
  }
  sessionHead.textContent = sessionHeadText(state);
  // Another session: a fresh list, opened at its bottom (not where the last one was scrolled to).
  if (drawnTranscriptOf !== viewer.openId) transcript.clear();
  drawnTranscriptOf = viewer.openId;
  transcript.update(
    state.items.filter((item) => shownItem(item, state.showHidden)),
    viewer.historyMark,
  );
  // Still at the top after a page came (or a transcript too short to scroll): the next page.
  if (viewer.historyMark === 'more' && transcript.nearTop()) void viewer.loadOlder();
  if (drawn.pending !== state.pendingPermissions || drawn.driving !== driving) {
    const current = viewer;
    renderPermissions(permissions, state.pendingPermissions, driving, (request, decision) => {
      void current.respond(request.requestId, decision).then((ok) => {
        if (!ok) drawn.pending = undefined; // answer failed: draw the buttons again, enabled
        scheduleDraw();
      });
    });
  }
  turnLine.textContent = turnText(state);
  message.disabled = !driving;
  message.placeholder = driving ? 'Message (Ctrl+Enter sends)' : state.session ? 'Watching with the view token: only a driver can send.' : 'Pick a session.';
  sendButton.disabled = !driving;
  stopButton.disabled = !driving || state.turn.phase === 'idle';
  drawn = { sessions: viewer.sessions, openId: viewer.openId, pending: state.pendingPermissions, driving };
}

login.addEventListener('submit', (event) => {
  event.preventDefault();
  const token = (login.elements.namedItem('token') as HTMLInputElement).value.trim();
  const name = (login.elements.namedItem('name') as HTMLInputElement).value.trim() || 'web';
  if (!token) return;
  void start(token, name);
});

async function start(token: string, name: string): Promise<void> {
  const submit = login.querySelector('button');
  if (submit) submit.disabled = true;
  loginError.textContent = '';
  const next = new Viewer({ url: location.origin, token, name, onChange: scheduleDraw, tail: attachTail(window.innerHeight) });
  try {
    await next.ready();
  } catch (err) {
    next.close();
    loginError.textContent = err instanceof Error ? err.message : String(err);
    if (submit) submit.disabled = false;
    return;
  }
  (login.elements.namedItem('token') as HTMLInputElement).value = '';
  viewer = next;
  login.hidden = true;
  app.hidden = false;
  await next.refreshSessions();
  const newest = [...next.sessions].sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
  if (newest && next.openId === null) await next.open(newest.id);
  scheduleDraw();
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
byId('refresh').addEventListener('click', () => void viewer?.refreshSessions());
