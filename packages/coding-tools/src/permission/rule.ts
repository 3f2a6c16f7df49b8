import type { Danger, Decision, StoredPermission, ToolKind } from '@tandem/shared';
import type { DeclaredSubject, PreviewView } from '@tandem/core';

/**
 * One permission rule, as the policy sees it. Stored rules (`StoredPermission`, persisted per
 * workspace) and session rules (in memory) share this shape.
 *
 * `match` says what `pattern` means:
 * - `tool`: every call of `tool` (no pattern);
 * - `exact`: a command tool's exact command text, or one exact segment of a compound command;
 * - `prefix`: for a command tool, leading words (`git status` covers `git status -s`, never
 *   `gitx`); for a file tool, an absolute directory ending in `/` that covers what is under it;
 * - `path`: a file tool's exact absolute path.
 */
export type PermissionRule = Pick<StoredPermission, 'tool' | 'match' | 'pattern' | 'effect' | 'by'> & { id?: string };

/** A rule about to be created from a person's decision; the store adds id, workspace and time. */
export type RuleDraft = Pick<StoredPermission, 'tool' | 'match' | 'pattern' | 'effect' | 'by'>;

/**
 * The part of a tool call the policy reads (a `GateCall` fits): what the tool declares about
 * itself and this call, never guessed from its name or its arguments' keys.
 */
export interface PolicyCall {
  tool: string;
  args: unknown;
  danger: Danger;
  kind?: ToolKind;
  /** What a rule about this call is about (absent: the whole tool). */
  subject?: DeclaredSubject;
  /** No allow rule covers it: every call asks (deny rules still apply). */
  alwaysAsk?: boolean;
  /** The tool's own preview; absent: one built from the subject. */
  preview?(view: PreviewView): string;
}

export type PolicyVerdict = 'allow' | 'deny' | 'ask';

export interface PolicyOptions {
  sessionRules: readonly PermissionRule[];
  storedRules: readonly PermissionRule[];
  /** The session's workspace; relative paths in arguments resolve against it. */
  workspace?: string;
  /**
   * requirements U4: commands that only read (`DEFAULT_READ_ONLY_COMMANDS`, or config.json's list). When
   * given, a command whose every segment is read-only is allowed at level `safe` unless a deny
   * rule covers it. Absent: no command is lowered (every command is decided by rules or asks).
   */
  readOnlyCommands?: readonly string[];
}

export interface PolicyResult {
  verdict: PolicyVerdict;
  /** The rule that decided (for a compound command allowed segment by segment: the first one). */
  rule?: PermissionRule;
  source?: 'session' | 'stored';
  /** Set when a read-only command was allowed without a rule (its `reason` names the commands). */
  readOnly?: true;
  /** The call's level: the tool's, raised by the most dangerous command segment. */
  level: Danger;
  /** What a stored decision could cover, narrowest first; offered in `permission_request.scopes`. */
  scopes: string[];
  /** A sentence saying why, for refusals and the audit log. */
  reason: string;
}

export type Lifetime = 'once' | 'session' | 'forever';

/**
 * The reverse bridge's `connector_call`: an external agent calling one of Tandem's MCP servers.
 * Its permission is about the pair (agent, server), never the tool name: the host sets `agent`.
 */
export const CONNECTOR_CALL = 'connector_call';

/** How long a decision lasts and whether it allows. */
export function decisionMeaning(decision: Decision): { effect: 'allow' | 'deny'; lifetime: Lifetime } {
  switch (decision) {
    case 'allow_once':
      return { effect: 'allow', lifetime: 'once' };
    case 'allow_session':
      return { effect: 'allow', lifetime: 'session' };
    case 'allow_forever':
      return { effect: 'allow', lifetime: 'forever' };
    case 'deny_once':
      return { effect: 'deny', lifetime: 'once' };
    case 'deny_forever':
      return { effect: 'deny', lifetime: 'forever' };
  }
}

export function describeRule(rule: PermissionRule): string {
  const what = rule.match === 'tool' ? `any ${rule.tool} call` : `${rule.tool} ${rule.match} "${rule.pattern ?? ''}"`;
  return `${rule.effect} ${what} (decided by ${rule.by})`;
}

const ORDER: Record<Danger, number> = { safe: 0, medium: 1, dangerous: 2 };

export function maxDanger(a: Danger, b: Danger): Danger {
  return ORDER[a] >= ORDER[b] ? a : b;
}
