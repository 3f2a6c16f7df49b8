import type { Decision, Role } from '@tandem/shared';
import type { PendingPermission } from '../state/types.js';
import type { DialogFocusView } from '../input/dialog-focus.js';
import { agentLabel } from './agent-label.js';
import { visibleWidth } from './fit-line.js';
import { bold, color, dim, esc } from './tags.js';

/** One-key answers in the permission dialog (once it has focus). */
export const DECISION_KEYS: Record<string, Decision> = {
  y: 'allow_once',
  s: 'allow_session',
  a: 'allow_forever',
  n: 'deny_once',
  d: 'deny_forever',
};

const PREVIEW_LINES = 12;
const ARG_LINES = 8;

/** Decisions that are stored, and so apply to a scope (the narrowest offered by default). */
export const LASTING_DECISIONS: ReadonlySet<Decision> = new Set(['allow_session', 'allow_forever', 'deny_forever']);

export interface PermissionViewOptions {
  role: Role;
  /** This client may answer (a driver, or a share with the approve right); default: a driver. */
  canAnswer?: boolean;
  /** This client holds a share: a share may not allow forever (the host's call), so `a` is not offered. */
  share?: boolean;
  now: number;
  more: number;
  scopeIndex?: number;
  /** Whether the dialog has the keys, and if not why (see input/dialog-focus.ts). */
  focus?: DialogFocusView;
  /** Columns inside the dialog's border and padding. */
  width?: number;
  /** Rows inside the dialog's border: long arguments and previews are cut so the choices always show. */
  maxLines?: number;
}

/**
 * The dialog's lines for the first pending request; `now` drives the countdown. The title,
 * the scope, the countdown, the choices and the focus line always show: when the screen is
 * short (down to 60×15) the arguments and preview are cut first, then the blank lines.
 */
export function formatPermission(request: PendingPermission, options: PermissionViewOptions): string[] {
  const width = options.width ?? 100;
  const dangerColor = request.danger === 'dangerous' ? 'red' : request.danger === 'medium' ? 'yellow' : 'green';
  // In a session with agents, which agent asks (a worker's request names the worker).
  const asker = request.agent ? `  ${dim('asked by')} ${agentLabel(request.agent)}` : '';
  const head = [`${bold(`Permission needed: ${esc(request.tool)}`)}  ${color(dangerColor, `[${request.danger.toUpperCase()}]`)}${asker}`];
  const body = [...argLines(request.tool, request.args)];
  const command = isRecord(request.args) && typeof request.args.command === 'string' ? request.args.command : undefined;
  if (request.preview && request.preview.trim() !== command?.trim()) {
    body.push('', dim('preview:'));
    const preview = request.preview.split(/\r?\n/);
    for (const line of preview.slice(0, PREVIEW_LINES)) body.push(diffLine(line));
    if (preview.length > PREVIEW_LINES) body.push(dim(`… (+${preview.length - PREVIEW_LINES} more lines)`));
  }
  const foot: string[] = [];
  const canAnswer = options.canAnswer ?? options.role === 'driver';
  const lasting = options.share ? 's / d' : 's / a / d';
  const scopes = request.scopes ?? [];
  if (scopes.length > 0) {
    const chosen = (options.scopeIndex ?? 0) % scopes.length;
    // A scope can be a whole multi-line command, and there can be one per segment: show one
    // line, at most three scopes around the chosen one, each cut to fit; Tab walks them all.
    const shownCount = Math.min(scopes.length, 3);
    const room = Math.max(12, Math.floor((width - 32) / shownCount));
    const one = (scope: string) => clipText(scope.replace(/\s*\r?\n\s*/g, ' ⏎ '), room);
    const from = Math.min(Math.max(0, chosen - 1), scopes.length - shownCount);
    const window = scopes
      .slice(from, from + shownCount)
      .map((scope, i) => (from + i === chosen ? bold(color('cyan', `[${esc(one(scope))}]`)) : dim(esc(one(scope)))));
    const hidden = scopes.length - shownCount;
    const shown = window.join(dim(' · ')) + (hidden > 0 ? dim(` (+${hidden} more)`) : '');
    foot.push(`${dim(`${lasting} apply to:`)} ${shown}${scopes.length > 1 && canAnswer && width >= 70 ? dim('   (Tab: another scope)') : ''}`);
  }
  foot.push(countdown(request.expiresAt, options.now) + (options.more > 0 ? dim(`  (+${options.more} more waiting)`) : ''));
  const watching = options.share ? 'watch-only: a driver or an approver answers this request' : 'watch-only: a driver answers this request';
  const choices = canAnswer ? choiceLines(width, options.focus ?? 'focused', !options.share, options.role === 'driver') : [color('magenta', watching)];
  return fitDialog(head, body, [...foot, ...choices], width, options.maxLines ?? Number.POSITIVE_INFINITY);
}

/** The five answers (four for a share: no allow forever), and who has the keys: bright when the dialog has focus, dim until then. */
function choiceLines(width: number, focus: DialogFocusView, forever: boolean, typing: boolean): string[] {
  const paint = focus === 'focused' ? key : (letter: string) => dim(`[${letter}]`);
  const lines =
    width >= 64
      ? [
          `${paint('y')} allow once   ${paint('s')} allow for this session${forever ? `   ${paint('a')} allow forever` : ''}`,
          `${paint('n')} deny once    ${paint('d')} deny forever`,
        ]
      : [`${paint('y')} once ${paint('s')} session${forever ? ` ${paint('a')} forever` : ''}`, `${paint('n')} deny once ${paint('d')} deny forever`];
  lines.push(focusLine(focus, width, typing));
  return lines;
}

/** `typing`: this client has an input line (a driver); an approver watching has none to mention. */
function focusLine(focus: DialogFocusView, width: number, typing: boolean): string {
  switch (focus) {
    case 'focused':
      return color('cyan', width >= 64 ? '▶ this dialog has the keys · Esc: back to the input line' : '▶ keys answer here · Esc: input line');
    case 'ready':
      return color(
        'magenta',
        width < 64
          ? 'F2 or Enter on empty line: answer here'
          : typing
            ? 'F2 or Enter on the empty line: answer here · typing goes to the input line'
            : 'F2 or Enter on the empty line: answer here',
      );
    case 'too_soon':
      return dim(typing ? 'typing goes to the input line; F2 answers in a moment' : 'F2 answers in a moment');
    case 'input_has_text':
      return color('magenta', width >= 64 ? 'the input line has text: send or clear it, then F2 answers here' : 'input has text: send/clear it, then F2');
  }
}

/** Screen rows `lines` take at `width` columns (long lines wrap). */
export function rowsOf(lines: readonly string[], width: number): number {
  return lines.flatMap((line) => line.split('\n')).reduce((sum, line) => sum + Math.max(1, Math.ceil(visibleWidth(line) / Math.max(1, width))), 0);
}

function clipText(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

/** Head, body and foot within `maxLines` rows of `width` columns: the body gives way first. */
export function fitDialog(head: string[], body: string[], foot: string[], width: number, maxLines: number): string[] {
  const rows = (lines: string[]) => rowsOf(lines, width);
  const roomy = [...head, '', ...body, '', ...foot];
  if (rows(roomy) <= maxLines) return roomy;
  const tight = [...head, ...body.filter((line) => line !== ''), ...foot];
  if (rows(tight) <= maxLines) return tight;
  const room = maxLines - rows(head) - rows(foot) - 1;
  const kept: string[] = [];
  for (const line of body.filter((candidate) => candidate !== '')) {
    if (rows([...kept, line]) > room) break;
    kept.push(line);
  }
  const cut = body.filter((line) => line !== '').length - kept.length;
  return [...head, ...kept, dim(`… (${cut} more line${cut === 1 ? '' : 's'}; a taller terminal shows them)`), ...foot];
}

function argLines(tool: string, args: unknown): string[] {
  const record = typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : null;
  if (record && typeof record.command === 'string') {
    const [first = '', ...rest] = record.command.split(/\r?\n/);
    return [`${dim('command:')} ${bold(esc(first))}`, ...rest.map((line) => `         ${bold(esc(line))}`)];
  }
  if (record && typeof record.path === 'string') {
    const extra = Object.entries(record).filter(([name]) => name !== 'path' && name !== 'content' && name !== 'old_str' && name !== 'new_str');
    return [`${dim('path:')} ${bold(esc(record.path))}`, ...extra.slice(0, 4).map(([name, value]) => `${dim(`${esc(name)}:`)} ${esc(short(value))}`)];
  }
  let json: string;
  try {
    json = JSON.stringify(args, null, 2) ?? String(args);
  } catch {
    json = String(args);
  }
  const lines = json.split('\n');
  const shown = lines.slice(0, ARG_LINES).map((line) => esc(line));
  if (lines.length > ARG_LINES) shown.push(dim(`… (+${lines.length - ARG_LINES} more lines)`));
  return [dim(`${esc(tool)} arguments:`), ...shown];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function diffLine(line: string): string {
  if (line.startsWith('+') && !line.startsWith('+++')) return color('green', esc(line));
  if (line.startsWith('-') && !line.startsWith('---')) return color('red', esc(line));
  if (line.startsWith('@@')) return color('cyan', esc(line));
  return esc(line);
}

function countdown(expiresAt: string, now: number): string {
  const at = Date.parse(expiresAt);
  if (!Number.isFinite(at)) return dim('no expiry given');
  const left = Math.max(0, Math.ceil((at - now) / 1000));
  const text = left > 0 ? `auto-deny in ${left} s` : 'expired: denying';
  return left <= 10 ? color('red', text) : dim(text);
}

function key(letter: string): string {
  return bold(color('cyan', `[${letter}]`));
}

function short(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
