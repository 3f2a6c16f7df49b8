import { commandLevel, hidesCommands, startsWithWords, writesFile } from './command-level.js';
import type { ShellSegment } from '../shell/index.js';
import { readOnlyCommand } from './read-only-commands.js';
import { scopeOptions, subjectOf, withSlash, type CallSubject } from './call-subject.js';
import { describeRule, maxDanger, type PermissionRule, type PolicyCall, type PolicyOptions, type PolicyResult } from './rule.js';

interface Sourced {
  rule: PermissionRule;
  source: 'session' | 'stored';
}

/**
 * The permission policy (requirements P1, P2), pure: no I/O, no clock.
 *
 * 1. A `safe` call is allowed, always.
 * 2. A deny rule (session or stored) that covers the call, or any segment of its command,
 *    denies it: deny wins over every allow.
 * 3. Allow rules: the session's are consulted first, then the workspace's stored ones. A
 *    command is allowed when an allow rule covers the whole exact command, or when EACH of its
 *    segments is covered (by an exact-segment rule or a prefix rule). A prefix rule never covers
 *    a segment that hides commands (`$(…)`, backticks) or writes a file by redirection.
 * 4. With `readOnlyCommands`: a command whose every segment only reads is allowed (level `safe`).
 * 5. Otherwise: ask, offering `scopes`.
 *
 * The blacklist is not here: the host checks it before this and nothing can unlock it.
 */
export function evaluatePermission(call: PolicyCall, options: PolicyOptions): PolicyResult {
  const subject = subjectOf(call, options);
  const level = subject.kind === 'command' ? maxDanger(call.danger, commandLevel(subject.segments)) : call.danger;
  const scopes = scopeOptions(call, subject, options).map((o) => o.label);
  if (level === 'safe') return { verdict: 'allow', level, scopes, reason: `${call.tool} is a safe tool` };

  const rules: Sourced[] = [
    ...options.sessionRules.map((rule) => ({ rule, source: 'session' as const })),
    ...options.storedRules.map((rule) => ({ rule, source: 'stored' as const })),
  ].filter((r) => r.rule.tool === call.tool);

  const denied = findDeny(rules, subject);
  if (denied) return { verdict: 'deny', ...denied, level, scopes, reason: `denied by ${denied.source} rule: ${describeRule(denied.rule)}` };

  const alwaysAsk = call.alwaysAsk === true;
  const allowed = alwaysAsk ? null : findAllow(rules, subject);
  if (allowed) return { verdict: 'allow', ...allowed, level, scopes, reason: `allowed by ${allowed.source} rule: ${describeRule(allowed.rule)}` };

  if (subject.kind === 'command' && options.readOnlyCommands) {
    const readOnly = readOnlyCommand(subject.segments, { list: options.readOnlyCommands, ...(options.workspace ? { workspace: options.workspace } : {}) });
    if (readOnly) return { verdict: 'allow', readOnly: true, level: 'safe', scopes, reason: readOnly.reason };
  }

  return { verdict: 'ask', level, scopes, reason: alwaysAsk ? `${call.tool} always asks` : 'no session or stored decision covers this call' };
}

function findDeny(rules: Sourced[], subject: CallSubject): Sourced | null {
  const deny = rules.filter((r) => r.rule.effect === 'deny');
  if (subject.kind !== 'command') return deny.find((r) => coversTarget(r.rule, subject)) ?? null;
  return (
    deny.find((r) => r.rule.match === 'tool' || coversWholeCommand(r.rule, subject.command)) ??
    deny.find((r) => subject.segments.some((s) => segmentMatches(r.rule, s, { forDeny: true }))) ??
    null
  );
}

function findAllow(rules: Sourced[], subject: CallSubject): Sourced | null {
  const allow = rules.filter((r) => r.rule.effect === 'allow');
  if (subject.kind !== 'command') return allow.find((r) => coversTarget(r.rule, subject)) ?? null;
  const whole = allow.find((r) => r.rule.match === 'tool' || coversWholeCommand(r.rule, subject.command));
  if (whole) return whole;
  if (subject.segments.length === 0) return null;
  let first: Sourced | null = null;
  for (const segment of subject.segments) {
    const hit = allow.find((r) => segmentMatches(r.rule, segment, { forDeny: false }));
    if (!hit) return null;
    first ??= hit;
  }
  return first;
}

function coversWholeCommand(rule: PermissionRule, command: string): boolean {
  return rule.match === 'exact' && command !== '' && rule.pattern?.trim() === command;
}

/**
 * Whether a rule covers one segment. For allowing, an exact-segment rule never covers a segment
 * fed by a here-document (its text does not show the body), and a prefix rule never covers one
 * that substitutes commands or writes a file. For denying, matching the text is enough.
 */
function segmentMatches(rule: PermissionRule, segment: ShellSegment, { forDeny }: { forDeny: boolean }): boolean {
  const pattern = rule.pattern?.trim() ?? '';
  const text = segment.text.trim();
  if (pattern === '') return false;
  if (rule.match === 'exact') return pattern === text && (forDeny || segment.heredocs.length === 0);
  if (rule.match !== 'prefix' || !startsWithWords(text, pattern)) return false;
  return forDeny || (!hidesCommands(segment) && !writesFile(segment));
}

function coversTarget(rule: PermissionRule, subject: Exclude<CallSubject, { kind: 'command' }>): boolean {
  if (subject.kind === 'pair') return rule.match === 'exact' && rule.pattern === subject.key;
  if (rule.match === 'tool') return true;
  if (subject.kind === 'host') {
    if (!rule.pattern) return false;
    if (rule.match === 'exact') return rule.pattern === subject.target;
    return rule.match === 'prefix' && rule.pattern === `${subject.host}:`;
  }
  if (subject.kind === 'url' && rule.pattern) {
    if (rule.match === 'exact') return rule.pattern === subject.url;
    // A site rule (`https://host/`) covers every page of that scheme, host and port.
    return rule.match === 'prefix' && rule.pattern === subject.site;
  }
  if (subject.kind !== 'path' || !rule.pattern) return false;
  if (rule.match === 'path') return rule.pattern === subject.path;
  if (rule.match === 'prefix') {
    const dir = withSlash(rule.pattern);
    return subject.path.startsWith(dir) || withSlash(subject.path) === dir;
  }
  return false;
}
