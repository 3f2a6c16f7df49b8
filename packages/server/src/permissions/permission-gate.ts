import {
  DEFAULT_COMMAND_TOOLS,
  buildPermissionPreview,
  evaluatePermission,
  ruleFromDecision,
  type GateCall,
  type GateVerdict,
  type PolicyOptions,
  type ToolGate,
} from '@tandem/core';
import type { PermissionBroker } from './permission-broker.js';
import type { PermissionStore } from './permission-store.js';
import type { SessionRuleSet } from './session-rules.js';
import { workspaceKey } from './workspace-key.js';

/** The blacklist check the gate runs first (core's `checkCommandBlacklist` fits). */
export type BlacklistCheck = (
  command: string,
) => { blocked: false } | { blocked: true; category: string; pattern: string; message: string; segment?: string };

/**
 * How a call was let through or refused, for the audit record (`decision`, `decidedBy`):
 * `safe`, `session_rule`, `stored_rule`, `blacklisted`, `denied_by_rule`, one of the five
 * answers, `timeout`, `cancelled`, or `error` (the gate itself failed; the call is refused).
 */
export interface GateDecision {
  callId: string;
  decision: string;
  decidedBy: string;
  allowed: boolean;
}

export interface PermissionGateOptions {
  broker: PermissionBroker;
  store: PermissionStore;
  /** The session's workspace (any path to it; keyed by its real path). */
  workspace: string;
  sessionRules: SessionRuleSet;
  blacklist: BlacklistCheck;
  commandTools?: ReadonlySet<string>;
  alwaysAskTools?: ReadonlySet<string>;
  /** Told how every call was decided (audit). Must not throw. */
  onDecision?(decision: GateDecision): void;
  /** Told about trouble that did not stop the call (e.g. permissions.json could not be written). */
  onWarning?(message: string): void;
}

/**
 * The permission step of the tool pipeline (SPEC P1–P3): blacklist first (nothing unlocks it),
 * then the policy over session and stored rules, then — only if neither decides — a question to
 * the attached drivers. A timed-out question refuses the call and stops the turn.
 */
export function createPermissionGate(options: PermissionGateOptions): ToolGate {
  const { broker, store, sessionRules, blacklist } = options;
  const commandTools = options.commandTools ?? DEFAULT_COMMAND_TOOLS;
  let key: Promise<string> | undefined;
  const note = (callId: string, decision: string, decidedBy: string, allowed: boolean) => {
    try {
      options.onDecision?.({ callId, decision, decidedBy, allowed });
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

  const check = async (call: GateCall, signal: AbortSignal): Promise<GateVerdict> => {
    if (commandTools.has(call.tool)) {
      const command = (call.args as { command?: unknown } | null)?.command;
      const hit = blacklist(typeof command === 'string' ? command : '');
      if (hit.blocked) {
        note(call.callId, 'blacklisted', 'system', false);
        return {
          allow: false,
          reason: `refused by the command blacklist (${hit.category}: ${hit.pattern}): ${hit.message}. No permission can unlock this; use a safer command.`,
        };
      }
    }

    key ??= workspaceKey(options.workspace);
    const workspace = await key;
    if (call.danger !== 'safe' || commandTools.has(call.tool)) await store.refresh().catch((e: Error) => warn(`could not re-read stored permissions: ${e.message}`));
    const policy: PolicyOptions = {
      sessionRules: sessionRules.list(),
      storedRules: store.rulesFor(workspace),
      workspace,
      commandTools,
      ...(options.alwaysAskTools ? { alwaysAskTools: options.alwaysAskTools } : {}),
    };
    const result = evaluatePermission(call, policy);
    if (result.verdict === 'allow') {
      const how = result.level === 'safe' ? 'safe' : result.source === 'session' ? 'session_rule' : 'stored_rule';
      note(call.callId, how, result.rule?.by ?? 'system', true);
      return { allow: true };
    }
    if (result.verdict === 'deny') {
      note(call.callId, 'denied_by_rule', result.rule?.by ?? 'system', false);
      const revoke = result.source === 'stored' && result.rule?.id ? ` (revoke it with \`tandem permissions revoke ${result.rule.id}\` to be asked again)` : '';
      return { allow: false, reason: `${result.reason}${revoke}` };
    }

    const answer = await broker.ask(
      { callId: call.callId, tool: call.tool, args: call.args, danger: result.level, scopes: result.scopes, preview: buildPermissionPreview(call, policy) },
      signal,
    );
    if (answer.reason === 'timeout') {
      note(call.callId, 'timeout', 'system', false);
      return {
        allow: false,
        reason: `permission request timed out after ${broker.timeoutText} (automatic deny)`,
        stopTurn: 'permission_timeout',
      };
    }
    if (answer.reason === 'cancelled') {
      note(call.callId, 'cancelled', 'system', false);
      return { allow: false, reason: 'the turn was cancelled while waiting for permission' };
    }

    const made = ruleFromDecision(call, answer.decision, answer.scope, answer.by, policy);
    if (made.ok && made.rule) {
      if (made.lifetime === 'session') sessionRules.add(made.rule);
      if (made.lifetime === 'forever') {
        await store.add(workspace, made.rule).catch((e: Error) => warn(`could not save the ${answer.decision} decision to ${store.file}: ${e.message}; it applies to this call only`));
      }
    }
    const allowed = answer.decision.startsWith('allow');
    note(call.callId, answer.decision, answer.by, allowed);
    if (allowed) return { allow: true };
    return { allow: false, reason: `denied by ${answer.by} (${answer.decision}); do not retry this call, ask the user what to do instead` };
  };

  return {
    async check(call, signal) {
      try {
        return await check(call, signal);
      } catch (error) {
        note(call.callId, 'error', 'system', false);
        return { allow: false, reason: `the permission check failed (${(error as Error).message}); the call was not run` };
      }
    },
  };
}
