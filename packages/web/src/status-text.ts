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
      return connection.message;
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

/** Title, model, mode and who is attached. */
export function sessionHeadText(state: ViewState): string {
  const session = state.session;
  if (!session) return 'Pick a session.';
  const people = state.presence.map((client) => `${client.name} (${client.role})`).join(', ');
  const model = state.model ?? session.model;
  const floor = state.floor && `floor ${state.floor}`;
  return [session.title || session.id.slice(0, 8), model, `mode ${session.mode}`, floor, session.cwd, people && `here: ${people}`].filter(Boolean).join(' · ');
}
