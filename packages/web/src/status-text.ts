import { runningAgents, type ViewState } from '@tandem/tui/state';

/** The connection as the header shows it. */
export function connectionText(state: ViewState): string {
  const connection = state.connection;
  switch (connection.status) {
    case 'connecting':
      return 'connecting…';
    case 'connected':
      return 'connected';
    case 'reconnecting':
      return `reconnecting (attempt ${connection.attempt}): ${connection.reason}`;
    case 'refused':
      // The share's end has its own line in the page (shareEndedText): the bar says it short.
      return connection.reason === 'share_ended' ? 'share ended' : connection.message;
    case 'closed':
      return 'disconnected';
  }
}

/** What the session is doing, one line under the transcript, then the running workers. */
export function turnText(state: ViewState): string {
  const workers = runningAgents(state).map((run) => `${run.agent}: ${run.activity === 'tool' ? (run.tool ?? 'tool') : run.activity}`);
  return [phaseText(state), workers.length > 0 ? `workers: ${workers.join(', ')}` : ''].filter(Boolean).join(' · ');
}

function phaseText(state: ViewState): string {
  const turn = state.turn;
  switch (turn.phase) {
    case 'idle':
      return '';
    case 'thinking':
      return 'thinking…';
    case 'writing':
      return 'writing…';
    case 'running_tool':
      return `running ${turn.tool ?? 'a tool'}…`;
    case 'waiting_permission':
      return `waiting for permission (${turn.tool ?? 'tool'})`;
  }
}

/** Title, model, mode, floor and folder of the open session (who is here has its own line, presence-view.ts). */
export function sessionHeadText(state: ViewState): string {
  const session = state.session;
  if (!session) return 'Pick a session.';
  const model = state.model ?? session.model;
  const floor = state.floor && `floor ${state.floor}`;
  return [session.title || session.id.slice(0, 8), model, `mode ${session.mode}`, floor, session.cwd].filter(Boolean).join(' · ');
}

/** Why the server refused the token at sign-in, and what to do: a share link's token, or one typed into the form. */
export function loginRefusedText(fromLink: boolean): string {
  if (fromLink) {
    return 'This share link was refused: the share was revoked or has expired, or the link is wrong (incomplete when copied?). Ask the person who shared it for a new link.';
  }
  return "This server refused the token. Use its control token (to drive) or its view token (to watch); a share's token stops working once the share is revoked or expires.";
}

/** The line that replaces the controls once the share ended: the client's sentence, capitalised, and that the page stopped. */
export function shareEndedText(state: ViewState): string {
  const connection = state.connection;
  const why = connection.status === 'refused' ? connection.message : 'your share of this session ended';
  return `${why.charAt(0).toUpperCase()}${why.slice(1)}. This page stopped: what is shown stays, nothing new arrives.`;
}
