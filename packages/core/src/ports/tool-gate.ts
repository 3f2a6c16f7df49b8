import type { Danger, ToolKind } from '@tandem/shared';

/**
 * What a person's rule about a call can be about, as the tool declares it: a shell command (rules
 * by command prefix), a file or folder (rules by path), a web address (rules by page or site), a
 * connection (`host:port`), an (agent, MCP server) pair. A call that declares none is ruled on as a whole tool.
 */
export type DeclaredSubject =
  | { command: string }
  | { path: string }
  | { url: string }
  | { host: string; port: number }
  /** An external agent calling one of Tandem's MCP servers: rules cover the (agent, server) pair. */
  | { agent: string; server: string };

/** How a preview shows a path: relative to the workspace when inside it. */
export interface PreviewView {
  showPath(path: string): string;
}

/** A tool call about to run, as the host's policy sees it. */
export interface GateCall {
  turnId: string;
  callId: string;
  tool: string;
  args: unknown;
  danger: Danger;
  readOnly: boolean;
  /** What the tool declares about itself and this call (ToolDefinition `kind`, `subject`, …). */
  kind?: ToolKind;
  subject?: DeclaredSubject;
  /** Every call asks: no allow rule and no mode covers it. */
  alwaysAsk?: boolean;
  /** The files it changes cannot be known from its arguments (a command, an MCP tool). */
  unknownWrites?: boolean;
  /** The call's one-line summary (its `tool_call.summary`). */
  summary?: string;
  /** What a person reads before approving it; absent: built from the subject. */
  preview?(view: PreviewView): string;
  /** What this gate's `screen` said about the call, handed back to its `check` (so the gate keeps no map of screened calls). */
  screened?: GateScreen;
  /**
   * The paths the call touches, as the path sandbox resolved them (canonical, symlinks
   * resolved). Present for tools that declare their paths; the sandbox already accepted them.
   */
  paths?: string[];
}

/**
 * How a refused call ended, for the audit record: `denied` (a person or a stored rule),
 * `blocked` (the command blacklist), `refused` (the path sandbox or the session's approval
 * mode), `timeout` (nobody answered the permission question), `cancelled`, `error` (the check failed).
 */
export type RefusalOutcome = 'denied' | 'blocked' | 'refused' | 'timeout' | 'cancelled' | 'error';

/**
 * How a call was let through or refused, carried on its `tool_result` and so into the audit
 * record: `decision` (`safe`, `read_only`, `session_rule`, `stored_rule`, `auto_edit`,
 * `full_auto`, one of the five answers, `blacklisted`, `denied_by_rule`, `mode_refused`,
 * `timeout`, `cancelled`, `error`) and `decidedBy` (`system`, or the person or share).
 */
export interface CallDecision {
  decision: string;
  decidedBy: string;
}

export type GateVerdict =
  | ({ allow: true } & Partial<CallDecision>)
  /** `stopTurn` ends the turn after this result (e.g. a permission request timed out). */
  | ({ allow: false; reason: string; stopTurn?: 'permission_timeout' | 'loop_stopped'; outcome?: RefusalOutcome } & Partial<CallDecision>);

/**
 * What the gate decides before the call is announced (its `tool_call` event): the danger and
 * why it will run without asking, or a refusal that needs no question (blacklist, approval mode).
 */
export interface GateScreen {
  danger: Danger;
  /** e.g. `read-only command: ls` or `auto-edit mode: a file edit inside the workspace`. */
  reason?: string;
  /** When the call will run without asking: how that was decided (announced on its `tool_call`). */
  allowed?: CallDecision;
  refusal?: { reason: string; outcome: RefusalOutcome } & Partial<CallDecision>;
  /** What the gate decided, opaque to the engine: handed back to `check` on `GateCall.screened`. */
  held?: unknown;
}

/**
 * The host's checks between schema validation and execution: blacklist, sandbox grants,
 * permissions, rate limits. The engine awaits it for every call; the default allows all.
 *
 * Order per call (ARCHITECTURE "One turn, end to end"): the engine validates the arguments and
 * runs the path sandbox, then `screen` (if the gate has it; a refusal ends the call before any
 * question), then announces the call, then `check` (stored decisions, the question, the rate
 * limiter), then runs the tool. `check` must be complete on its own: callers may skip `screen`.
 */
export interface ToolGate {
  check(call: GateCall, signal: AbortSignal): Promise<GateVerdict>;
  screen?(call: GateCall): Promise<GateScreen>;
}

export const allowAllGate: ToolGate = { check: async () => ({ allow: true }) };
