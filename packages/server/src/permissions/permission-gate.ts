import type { ApprovalMode, Danger } from '@tandem/shared';
import type { GateCall, GateScreen, GateVerdict, RefusalOutcome, ToolGate } from '@tandem/core';
import {
  autoEditAllows,
  fullAutoAllows,
  buildPermissionPreview,
  evaluatePermission,
  readOnlyCommand,
  readOnlyModeRefusal,
  ruleFromDecision,
  type PolicyOptions,
  type PolicyResult,
} from '@tandem/coding-tools';
import type { PermissionBroker } from './permission-broker.js';
import type { PermissionStore } from './permission-store.js';
import type { SessionRuleSet } from './session-rules.js';
import { workspaceKey } from './workspace-key.js';

/** The blacklist check the gate runs first (the coding tools' `checkCommandBlacklist` fits). */
export type BlacklistCheck = (
  command: string,
  /** Where the command runs: recursive deletes must stay inside this workspace. */
  context?: { workspace?: string },
) => { blocked: false } | { blocked: true; category: string; pattern: string; message: string; segment?: string };

/**
 * How a call was let through or refused, for the audit record (`decision`, `decidedBy`):
 * `safe`, `session_rule`, `stored_rule`, `blacklisted`, `denied_by_rule`, one of the five
 * answers, `timeout`, `cancelled`, `read_only` (a read-only command), `auto_edit` (a file edit
 * in auto-edit mode), `full_auto` (a call full-auto mode ran without asking), `mode_refused`
 * (read-only mode), or `error` (the gate itself failed).
 */
export interface GateDecision {
  callId: string;
  decision: string;
  decidedBy: string;
  allowed: boolean;
  /** The call decided on (for decisions that are not about a tool call of the turn, e.g. an MCP server's launch). */
  call?: GateCall;
}

/** The permission step: `screen` before the call is announced, `check` (may ask) after. */
export interface PermissionGate extends ToolGate {
  screen(call: GateCall): Promise<GateScreen>;
}

export interface PermissionGateOptions {
  broker: PermissionBroker;
  store: PermissionStore;
  /** The session's workspace (any path to it; keyed by its real path). */
  workspace: string;
  sessionRules: SessionRuleSet;
  blacklist: BlacklistCheck;
  /** The session's approval mode, read at every call (default `ask`). */
  mode?: () => ApprovalMode;
  /**
   * The read-only command list (requirements U4; config.json `readOnlyCommands`), read at every call.
   * Absent: no command runs without a decision (the policy's default).
   */
  readOnlyCommands?: readonly string[] | (() => readonly string[] | undefined);
  /** Told how every call was decided (audit). Must not throw. */
  onDecision?(decision: GateDecision): void;
  /** Told about trouble that did not stop the call (e.g. permissions.json could not be written). */
  onWarning?(message: string): void;
}

/** What the gate decided before any question; `ask` goes on to the broker. */
type Decided =
  | { kind: 'refuse'; reason: string; outcome: RefusalOutcome; decision: string; decidedBy: string; danger: Danger }
  | { kind: 'allow'; reason?: string; decision: string; decidedBy: string; danger: Danger }
  | { kind: 'ask'; result: PolicyResult; policy: PolicyOptions; workspace: string; danger: Danger };

/** The screen's decision as it travels with the call to `check` (`GateScreen.held`); only this gate's own is taken back. */
class Screened {
  constructor(
    readonly gate: object,
    readonly decided: Decided,
  ) {}
}

/**
 * The permission step of the tool pipeline (requirements P1–P3, U2, U4). `screen` (before the call is
 * announced) and `check` decide the same way: blacklist first (nothing unlocks it), then the
 * session's approval mode (`read-only` refuses what could change something), then the policy
 * over session and stored rules and the read-only command list, then `auto-edit`'s file edits
 * and `full-auto`, and only if none of these decides, a question to the attached drivers (in `check`). A
 * timed-out question refuses the call and stops the turn.
 */
export function createPermissionGate(options: PermissionGateOptions): PermissionGate {
  const { broker, store, sessionRules, blacklist } = options;
  const self = {};
  let key: Promise<string> | undefined;
  const note = (call: GateCall, decision: string, decidedBy: string, allowed: boolean) => {
    try {
      options.onDecision?.({ callId: call.callId, decision, decidedBy, allowed, call });
    } catch {
      // the audit hook must never decide a call
    }
  };
  const warn = (message: string) => {
    try {
      options.onWarning?.(message);
    } catch {
      // ignore
    }
  };
  const readOnlyList = () => (typeof options.readOnlyCommands === 'function' ? options.readOnlyCommands() : options.readOnlyCommands);

  const decide = async (call: GateCall): Promise<Decided> => {
    // A call whose tool declares a shell command as its subject (run_command, a skill's command).
    const isCommand = call.subject !== undefined && 'command' in call.subject;
    const command = call.subject && 'command' in call.subject ? call.subject.command : '';
    if (isCommand) {
      const hit = blacklist(command, { workspace: options.workspace });
      if (hit.blocked) {
        return {
          kind: 'refuse',
          outcome: 'blocked',
          decision: 'blacklisted',
          decidedBy: 'system',
          danger: call.danger,
          // The message names the category, pattern and segment, says why and that nothing ran.
          reason: hit.message,
        };
      }
    }

    key ??= workspaceKey(options.workspace);
    const workspace = await key;
    if (call.danger !== 'safe' || isCommand) await store.refresh().catch((e: Error) => warn(`could not re-read stored permissions: ${e.message}`));
    const list = readOnlyList();
    const policy: PolicyOptions = {
      sessionRules: sessionRules.list(),
      storedRules: store.rulesFor(workspace),
      workspace,
      ...(list ? { readOnlyCommands: list } : {}),
    };
    const mode = options.mode?.() ?? 'ask';
    const readOnly = isCommand ? (readOnlyCommand(command, { list: list ?? [], workspace })?.reason ?? null) : null;
    const modeRefusal = readOnlyModeRefusal(call, mode, { isCommand, readOnly, command });
    if (modeRefusal) return { kind: 'refuse', outcome: 'refused', decision: 'mode_refused', decidedBy: 'system', danger: call.danger, reason: modeRefusal };

    const result = evaluatePermission(call, policy);
    if (result.verdict === 'allow') {
      const how = result.readOnly ? 'read_only' : result.level === 'safe' ? 'safe' : result.source === 'session' ? 'session_rule' : 'stored_rule';
      const reason = result.readOnly ? result.reason : result.source ? result.reason : undefined;
      return {
        kind: 'allow',
        decision: how,
        decidedBy: result.rule?.by ?? 'system',
        danger: result.readOnly ? 'safe' : call.danger,
        ...(reason ? { reason } : {}),
      };
    }
    if (result.verdict === 'deny') {
      const revoke = result.source === 'stored' && result.rule?.id ? ` (revoke it with \`tandem permissions revoke ${result.rule.id}\` to be asked again)` : '';
      return {
        kind: 'refuse',
        outcome: 'denied',
        decision: 'denied_by_rule',
        decidedBy: result.rule?.by ?? 'system',
        danger: call.danger,
        reason: `${result.reason}${revoke}`,
      };
    }
    const autoEdit = autoEditAllows(call, mode, workspace);
    if (autoEdit) return { kind: 'allow', decision: 'auto_edit', decidedBy: 'system', danger: call.danger, reason: autoEdit };
    const fullAuto = fullAutoAllows(mode, call.alwaysAsk === true);
    if (fullAuto) return { kind: 'allow', decision: 'full_auto', decidedBy: 'system', danger: call.danger, reason: fullAuto };
    return { kind: 'ask', result, policy, workspace, danger: call.danger };
  };

  const refusal = (call: GateCall, d: Extract<Decided, { kind: 'refuse' }>): Extract<GateVerdict, { allow: false }> => {
    note(call, d.decision, d.decidedBy, false);
    return { allow: false, reason: d.reason, outcome: d.outcome, decision: d.decision, decidedBy: d.decidedBy };
  };

  const check = async (call: GateCall, signal: AbortSignal): Promise<GateVerdict> => {
    const held = call.screened?.held;
    const d = held instanceof Screened && held.gate === self ? held.decided : await decide(call);
    if (d.kind === 'refuse') return refusal(call, d);
    if (d.kind === 'allow') {
      note(call, d.decision, d.decidedBy, true);
      return { allow: true, decision: d.decision, decidedBy: d.decidedBy };
    }
    const { result, policy, workspace } = d;
    const answer = await broker.ask(
      {
        callId: call.callId,
        tool: call.tool,
        args: call.args,
        danger: result.level,
        scopes: result.scopes,
        preview: buildPermissionPreview(call, policy),
        ...(call.summary !== undefined ? { summary: call.summary } : {}),
      },
      signal,
    );
    if (answer.reason === 'timeout') {
      note(call, 'timeout', 'system', false);
      return {
        allow: false,
        reason: `permission request timed out after ${broker.timeoutText} (automatic deny)`,
        stopTurn: 'permission_timeout',
        outcome: 'timeout',
        decision: 'timeout',
        decidedBy: 'system',
      };
    }
    if (answer.reason === 'cancelled') {
      note(call, 'cancelled', 'system', false);
      return { allow: false, reason: 'the turn was cancelled while waiting for permission', outcome: 'cancelled', decision: 'cancelled', decidedBy: 'system' };
    }

    const made = ruleFromDecision(call, answer.decision, answer.scope, answer.by, policy);
    if (made.ok && made.rule) {
      if (made.lifetime === 'session') sessionRules.add(made.rule);
      if (made.lifetime === 'forever') {
        await store
          .add(workspace, made.rule)
          .catch((e: Error) => warn(`could not save the ${answer.decision} decision to ${store.file}: ${e.message}; it applies to this call only`));
      }
    }
    const allowed = answer.decision.startsWith('allow');
    note(call, answer.decision, answer.by, allowed);
    const decided = { decision: answer.decision, decidedBy: answer.by };
    if (allowed) return { allow: true, ...decided };
    return {
      allow: false,
      reason: `denied by ${answer.by} (${answer.decision}); do not retry this call, ask the user what to do instead`,
      outcome: 'denied',
      ...decided,
    };
  };

  return {
    async screen(call) {
      try {
        const d = await decide(call);
        if (d.kind === 'refuse') {
          const { reason, outcome, decision, decidedBy } = refusal(call, d);
          return {
            danger: d.danger,
            refusal: { reason, outcome: outcome ?? d.outcome, decision: decision ?? d.decision, decidedBy: decidedBy ?? d.decidedBy },
          };
        }
        return {
          danger: d.danger,
          ...(d.kind === 'allow' && d.reason ? { reason: d.reason } : {}),
          ...(d.kind === 'allow' ? { allowed: { decision: d.decision, decidedBy: d.decidedBy } } : {}),
          held: new Screened(self, d),
        };
      } catch (error) {
        note(call, 'error', 'system', false);
        return {
          danger: call.danger,
          refusal: {
            reason: `the permission check failed (${(error as Error).message}); the call was not run`,
            outcome: 'error',
            decision: 'error',
            decidedBy: 'system',
          },
        };
      }
    },
    async check(call, signal) {
      try {
        return await check(call, signal);
      } catch (error) {
        note(call, 'error', 'system', false);
        return {
          allow: false,
          reason: `the permission check failed (${(error as Error).message}); the call was not run`,
          outcome: 'error',
          decision: 'error',
          decidedBy: 'system',
        };
      }
    },
  };
}
