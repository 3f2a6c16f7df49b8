import { describe as describeConnection } from '../client.js';
import type { ViewState } from '../state/types.js';
import type { ApprovalMode, ClientInfo } from '@tandem/shared';
import type { DialogFocusView } from '../input/dialog-focus.js';
import { countdownText } from '../reconnect-backoff.js';
import { COMMANDER, hasHiddenItems } from '../state/agents.js';
import { canApprove, hasControl, shareSummary } from '../state/access.js';
import { fitParts, type LinePart } from './fit-line.js';
import { floorPart, workersPart } from './format-workers.js';
import { bold, color, dim, esc } from './tags.js';

export const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Status-line options: the clock (for the reconnect countdown) and the terminal width. */
export interface StatusOptions {
  now?: number;
  width?: number;
}

/**
 * The one status line: connection, session, model, approval mode, role, the turn, jobs,
 * context, usage, sandbox, others attached. At a narrow width the least important parts are
 * dropped (the sandbox name first, then tokens, then who else is attached — shortened to
 * `+2 attached` before it goes —, jobs, context, title, role, model) instead of the line
 * being cut off; connection, turn and approval mode stay, and so does a red `no sandbox`.
 */
export function formatStatus(state: ViewState, spinnerFrame: number, options: StatusOptions = {}): string {
  const now = options.now ?? Date.now();
  const parts: LinePart[] = [{ text: connectionPart(state, now), priority: 10, short: connectionPart(state, now, true) }];
  if (state.session) parts.push({ text: `${bold(esc(state.session.title || 'untitled'))} ${dim(esc(shortId(state.session.id)))}`, priority: 4 });
  const model = state.model ?? state.session?.model;
  if (model) parts.push({ text: esc(model), priority: 7 });
  if (state.session) parts.push({ text: modePart(state.session.mode), priority: 8 });
  if (state.session?.searchOnly) parts.push({ text: color('cyan', 'search only'), priority: 8 });
  parts.push(rolePart(state));
  if (state.commandFocus) parts.push({ text: color('yellow', bold('⌨ typing into command')), priority: 9 });
  parts.push({ text: turnPart(state, spinnerFrame), priority: 9, short: turnPart(state, spinnerFrame, true) });
  const workers = workersPart(state, tokens);
  if (workers) parts.push({ text: workers.text, short: workers.short, priority: 6 });
  // `floor commander` is the usual case: it goes first on a narrow line (after the sandbox name); another holder stays long.
  if (state.floor) parts.push({ text: floorPart(state.floor), priority: state.floor === COMMANDER ? 0.5 : 8 });
  const jobs = state.jobs.filter((job) => job.status === 'running').length;
  if (jobs > 0) parts.push({ text: color('cyan', `${jobs} job${jobs === 1 ? '' : 's'} (F3)`), priority: 3 });
  if (state.context) parts.push({ text: contextPart(state.context.percent), priority: 3 });
  if (state.lastUsage) parts.push({ text: dim(`in ${tokens(state.lastUsage.inputTokens)} out ${tokens(state.lastUsage.outputTokens)}`), priority: 1 });
  // No sandbox is a safety fact worth keeping; which sandbox is the first thing to go.
  if (state.session?.sandbox) parts.push({ text: sandboxPart(state.session.sandbox), priority: state.session.sandbox.startsWith('off') ? 6 : 0 });
  const others = state.presence.filter((client) => client.name !== state.me);
  if (others.length > 0) {
    parts.push({
      text: `with ${others.map((client) => esc(presenceName(client))).join(', ')}`,
      short: `+${others.length} attached`,
      priority: 2,
    });
  }
  return fitParts(parts, options.width ?? Number.POSITIVE_INFINITY);
}

/** Our role: `driver`, `viewer`, or for a share what it lets us do (`approver: you can watch … answer its permission requests`). */
function rolePart(state: ViewState): LinePart {
  if (state.share) {
    return { text: color('magenta', esc(shareSummary(state.share))), short: color('magenta', `${state.share.role} share`), priority: 5 };
  }
  return { text: state.role === 'driver' ? 'driver' : color('magenta', 'viewer'), priority: 5 };
}

/** `carla (approver)`: a share's role when the client came in with one, else the role it attached as. */
export function presenceName(client: ClientInfo): string {
  return `${client.name} (${client.shareRole ?? client.role})`;
}

/** `ask` plain; the modes that ask less stand out. */
function modePart(mode: ApprovalMode): string {
  if (mode === 'auto-edit') return color('yellow', 'auto-edit');
  if (mode === 'read-only') return color('cyan', 'read-only');
  if (mode === 'full-auto') return color('red', 'full-auto');
  return 'ask';
}

/** `sandbox bwrap`, or a red `no sandbox` when the server runs commands without one. */
function sandboxPart(sandbox: string): string {
  if (sandbox.startsWith('off')) return color('red', 'no sandbox');
  return dim(`sandbox ${esc(sandbox.replace(/^bubblewrap/, 'bwrap'))}`);
}

function connectionPart(state: ViewState, now: number, short = false): string {
  switch (state.connection.status) {
    case 'connected':
      return color('green', `● ${esc(shortUrl(state.url))}`);
    case 'connecting':
      return color('yellow', `○ connecting to ${esc(state.url)}`);
    case 'reconnecting': {
      const { attempt, reason, retryAt } = state.connection;
      if (short) return color('red', `○ lost · retry ${countdownText(retryAt, now)}`);
      return color('red', `○ ${esc(state.url)} lost: ${esc(reason)} · retry ${attempt > 0 ? `${attempt} ` : ''}${countdownText(retryAt, now)}`);
    }
    case 'refused':
    case 'closed':
      return color('red', `○ ${esc(describeConnection(state.connection))}`);
  }
}

function turnPart(state: ViewState, frame: number, short = false): string {
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
      return color('magenta', short ? '? permission' : `? waiting for permission${state.turn.tool ? ` (${esc(state.turn.tool)})` : ''}`);
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

/** The help line under the input: what the keys do right now, shortened to `width`. */
export function formatHelp(
  state: ViewState,
  options: { width?: number; dialog?: DialogFocusView; confirming?: boolean; flash?: string; mentions?: readonly string[] } = {},
): string {
  const width = options.width ?? Number.POSITIVE_INFINITY;
  if (state.connection.status === 'refused') return color('red', ' the server no longer lets this client in: any key closes this screen');
  if (options.flash) return color('magenta', ` ${esc(options.flash)}`);
  if (options.mentions && options.mentions.length > 0 && state.role === 'driver' && !state.commandFocus)
    return color('cyan', ` Tab completes: ${esc(options.mentions.map((name) => `@${name}`).join(' '))}`);
  // Ctrl-O is offered where people look once a session has anonymous workers.
  const workers: Array<[string, number]> = hasHiddenItems(state) ? [[state.showHidden ? 'Ctrl-O hide workers' : 'Ctrl-O show workers', 6]] : [];
  const hints = (parts: Array<[string, number, string?]>) =>
    dim(
      fitParts(
        parts.map(([text, priority, short]) => ({ text, priority, ...(short ? { short } : {}) })),
        width,
        ' · ',
      ),
    );
  if (options.confirming)
    return hints([
      ['y yes', 9],
      ['n or Esc no', 9],
    ]);
  const answering = canApprove(state) && state.pendingPermissions.length > 0;
  const panels: Array<[string, number]> = state.share
    ? [
        ['F3 jobs', 3],
        ['F7 sessions', 2],
      ]
    : [['F3 jobs', 3], ['F6 memory', 3], ['F7 sessions', 2], ...(hasControl(state) ? [['F9 shares', 2] as [string, number]] : [])];
  if (state.role === 'viewer' && !answering)
    return hints([[state.share ? `${state.share.role} share` : 'watching', 9], ...workers, ['PgUp/PgDn scroll', 5], ...panels, ['Ctrl-D or Ctrl-C quit', 8]]);
  const stop: [string, number, string?] = state.role === 'driver' ? ['Esc or Ctrl-C cancel turn', 4, 'Ctrl-C cancel turn'] : ['Ctrl-C quit', 4];
  if (answering) {
    if (options.dialog === 'focused')
      return hints([
        ['y allow once', 9],
        ['s session', 9],
        ...(state.share ? [] : [['a forever', 9] as [string, number]]),
        ['n deny', 9],
        ['d deny forever', 9],
        ['Tab scope', 5],
        ['Esc back to input', 6],
      ]);
    if (options.dialog === 'input_has_text')
      return hints([['permission waiting: send or clear the input line, then F2 answers it', 9, 'permission waiting: clear the line, then F2'], stop]);
    return hints([['permission waiting: F2 or Enter on the empty line to answer', 9, 'permission waiting: F2 answers it'], stop]);
  }
  if (state.commandFocus)
    return hints([
      ['Enter types the line + Enter into the command', 9],
      ['Ctrl-T or Esc back to chat', 8],
      ['Ctrl-C cancel turn', 6],
    ]);
  const cancel: [string, number, string?] = state.turn.phase === 'idle' ? ['Ctrl-C quit', 8] : ['Esc or Ctrl-C cancel turn', 8, 'Ctrl-C cancel turn'];
  const focus: Array<[string, number]> = state.turn.phase === 'running_tool' && state.turn.toolKind === 'execute' ? [['Ctrl-T type into command', 7]] : [];
  return hints([
    ['Enter send', 9],
    ['Ctrl-J newline', 3],
    cancel,
    ...focus,
    ['Ctrl-D quit', 2],
    ['Shift-Tab mode', 5],
    ...workers,
    ['PgUp/PgDn', 1],
    [state.share ? 'F3 jobs F7 sessions' : `F3 jobs F4 perms F5 audit F6 memory F7 sessions${hasControl(state) ? ' F9 shares' : ''}`, 2],
    ['Ctrl-G editor', 3],
    ['/help', 6],
  ]);
}
