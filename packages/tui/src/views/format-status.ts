import { describe as describeConnection } from '../client.js';
import type { ViewState } from '../state/types.js';
import { bold, color, dim, esc } from './tags.js';

export const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** The one status line: connection, session, model, role, others attached, turn, context, usage. */
export function formatStatus(state: ViewState, spinnerFrame: number): string {
  const parts: string[] = [connectionPart(state)];
  if (state.session) parts.push(`${bold(esc(state.session.title || 'untitled'))} ${dim(esc(shortId(state.session.id)))}`);
  if (state.model) parts.push(esc(state.model));
  parts.push(state.role === 'driver' ? 'driver' : color('magenta', 'viewer'));
  // Before the turn state: a narrow terminal cuts the line from the right.
  if (state.commandFocus) parts.push(color('yellow', bold('⌨ typing into command')));
  parts.push(turnPart(state, spinnerFrame));
  const jobs = state.jobs.filter((job) => job.status === 'running').length;
  if (jobs > 0) parts.push(color('cyan', `${jobs} job${jobs === 1 ? '' : 's'} (F3)`));
  if (state.context) parts.push(contextPart(state.context.percent));
  if (state.lastUsage) parts.push(dim(`in ${tokens(state.lastUsage.inputTokens)} out ${tokens(state.lastUsage.outputTokens)}`));
  // Least important last: a narrow terminal cuts the line from the right.
  const others = state.presence.filter((client) => client.name !== state.me);
  if (others.length > 0) parts.push(`with ${others.map((client) => esc(`${client.name}${client.role === 'viewer' ? ' (watching)' : ''}`)).join(', ')}`);
  return ` ${parts.join(dim(' │ '))}`;
}

function connectionPart(state: ViewState): string {
  switch (state.connection.status) {
    case 'connected':
      return color('green', `● ${esc(shortUrl(state.url))}`);
    case 'connecting':
      return color('yellow', `○ connecting to ${esc(state.url)}`);
    case 'reconnecting':
    case 'refused':
    case 'closed':
      return color('red', `○ ${esc(describeConnection(state.connection))}`);
  }
}

function turnPart(state: ViewState, frame: number): string {
  const spin = SPINNER[frame % SPINNER.length] ?? '*';
  switch (state.turn.phase) {
    case 'idle':
      return dim('idle');
    case 'thinking':
      return color('cyan', `${spin} thinking`);
    case 'writing':
      return color('cyan', `${spin} writing`);
    case 'running_tool':
      return color('yellow', `${spin} running ${esc(state.turn.tool ?? 'tool')}`);
    case 'waiting_permission':
      return color('magenta', `? waiting for permission${state.turn.tool ? ` (${esc(state.turn.tool)})` : ''}`);
  }
}

function contextPart(percent: number): string {
  const text = `ctx ${Math.round(percent)}%`;
  if (percent >= 80) return color('red', text);
  if (percent >= 60) return color('yellow', text);
  return dim(text);
}

/** `local:7777` for a loopback server (the usual case), else host:port as given. */
export function shortUrl(url: string): string {
  const bare = url.replace(/^https?:\/\//, '').replace(/\/$/, '');
  return bare.replace(/^(127\.0\.0\.1|localhost|\[::1\]):/, 'local:');
}

/** `950`, `12.7k`, `1.3M`: token counts short enough for the status line. */
export function tokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(count < 100_000 ? 1 : 0)}k`;
  return `${(count / 1_000_000).toFixed(1)}M`;
}

function shortId(id: string): string {
  return id.length > 10 ? id.slice(0, 8) : id;
}

/** The help line under the input: what the keys do right now. */
export function formatHelp(state: ViewState): string {
  if (state.role === 'viewer') return dim(' watching · PgUp/PgDn scroll · F3 jobs · F6 memory · Ctrl-D or Ctrl-C quit');
  if (state.pendingPermissions.length > 0) return dim(' y allow once · s session · a forever · n deny · d deny forever');
  if (state.commandFocus) return dim(' Enter types the line + Enter into the command · Ctrl-T or Esc back to chat · Ctrl-C cancel turn');
  const cancel = state.turn.phase === 'idle' ? 'Ctrl-C quit' : 'Ctrl-C cancel turn';
  const focus = state.turn.phase === 'running_tool' && state.turn.tool === 'run_command' ? ' · Ctrl-T type into command' : '';
  return dim(` Enter send · ${cancel}${focus} · Ctrl-D quit · PgUp/PgDn · F3 jobs F4 perms F5 audit F6 memory · /help`);
}
