import type { Decision, Role } from '@tandem/shared';
import type { PendingPermission, ResolvedPermission } from '../state/types.js';
import { bold, color, dim, esc } from './tags.js';

/** One-key answers in the permission dialog. */
export const DECISION_KEYS: Record<string, Decision> = {
  y: 'allow_once',
  s: 'allow_session',
  a: 'allow_forever',
  n: 'deny_once',
  d: 'deny_forever',
};

const PREVIEW_LINES = 12;
const ARG_LINES = 8;

/** The dialog's lines for the first pending request; `now` drives the countdown. */
/** Decisions that are stored, and so apply to a scope (the narrowest offered by default). */
export const LASTING_DECISIONS: ReadonlySet<Decision> = new Set(['allow_session', 'allow_forever', 'deny_forever']);

export function formatPermission(
  request: PendingPermission,
  options: { role: Role; now: number; more: number; scopeIndex?: number },
): string[] {
  const dangerColor = request.danger === 'dangerous' ? 'red' : request.danger === 'medium' ? 'yellow' : 'green';
  const lines = [
    `${bold(`Permission needed: ${esc(request.tool)}`)}  ${color(dangerColor, `[${request.danger.toUpperCase()}]`)}`,
    '',
    ...argLines(request.tool, request.args),
  ];
  const command = isRecord(request.args) && typeof request.args.command === 'string' ? request.args.command : undefined;
  if (request.preview && request.preview.trim() !== command?.trim()) {
    lines.push('', dim('preview:'));
    const preview = request.preview.split(/\r?\n/);
    for (const line of preview.slice(0, PREVIEW_LINES)) lines.push(diffLine(line));
    if (preview.length > PREVIEW_LINES) lines.push(dim(`… (+${preview.length - PREVIEW_LINES} more lines)`));
  }
  const scopes = request.scopes ?? [];
  if (scopes.length > 0) {
    const chosen = (options.scopeIndex ?? 0) % scopes.length;
    const shown = scopes.map((scope, i) => (i === chosen ? bold(color('cyan', `[${esc(scope)}]`)) : dim(esc(scope)))).join(dim(' · '));
    lines.push('', `${dim('s / a / d apply to:')} ${shown}${scopes.length > 1 && options.role === 'driver' ? dim('   (Tab: another scope)') : ''}`);
  }
  lines.push('', countdown(request.expiresAt, options.now));
  if (options.more > 0) lines.push(dim(`(+${options.more} more request${options.more === 1 ? '' : 's'} waiting)`));
  lines.push('');
  if (options.role === 'driver') {
    lines.push(`${key('y')} allow once   ${key('s')} allow for this session   ${key('a')} allow forever`);
    lines.push(`${key('n')} deny once    ${key('d')} deny forever`);
  } else {
    lines.push(color('magenta', 'watch-only: a driver answers this request'));
  }
  return lines;
}

/** Shown briefly after a request was answered, so everyone sees who decided. */
export function formatResolved(resolved: ResolvedPermission): string[] {
  const allowed = resolved.decision.startsWith('allow');
  const words = resolved.decision.replace('_', ' ');
  return [bold(`Permission: ${esc(resolved.tool)}`), '', color(allowed ? 'green' : 'red', `${words} by ${esc(resolved.by)}`)];
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
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
