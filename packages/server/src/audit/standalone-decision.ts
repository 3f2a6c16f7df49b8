import type { AuditRecord, Danger } from '@tandem/shared';
import type { AuditEntry } from './audit-log.js';

/**
 * Permission questions that are not about a tool call of the turn: the launch of a project MCP
 * server (`mcp_server`, asked before the turn's first model request). No `tool_call` or
 * `tool_result` follows them, so the decision itself is the record.
 */
export const STANDALONE_DECISIONS: ReadonlySet<string> = new Set(['mcp_server', 'network']);

type Outcome = NonNullable<AuditRecord['outcome']>;

/** The audit entry of one standalone decision: who decided (`decidedBy`), what (`args`), when (the record's time), and the outcome. */
export function standaloneRecord(
  sessionId: string,
  note: { callId: string; decision: string; decidedBy: string; allowed?: boolean },
  call: { turnId?: string; tool: string; args: unknown; danger: Danger },
): AuditEntry {
  const allowed = note.allowed === true;
  const name = (call.args as { name?: unknown } | null)?.name;
  const what =
    call.tool === 'mcp_server'
      ? `the launch of project MCP server "${typeof name === 'string' ? name : '?'}"`
      : call.tool === 'network'
        ? `a command's connection to ${networkTarget(call.args)}`
        : call.tool;
  const outcome: Outcome = allowed
    ? 'ok'
    : note.decision === 'timeout'
      ? 'timeout'
      : note.decision === 'cancelled'
        ? 'cancelled'
        : note.decision === 'error'
          ? 'error'
          : 'denied';
  return {
    sessionId,
    ...(call.turnId !== undefined ? { turnId: call.turnId } : {}),
    callId: note.callId,
    tool: call.tool,
    danger: call.danger,
    args: call.args,
    output: `${allowed ? 'approved' : 'refused'} ${what} (${note.decision} by ${note.decidedBy})`,
    isError: !allowed,
    durationMs: 0,
    decision: note.decision,
    decidedBy: note.decidedBy,
    outcome,
  };
}

function networkTarget(args: unknown): string {
  const { host, port } = (args ?? {}) as { host?: unknown; port?: unknown };
  return `${typeof host === 'string' ? host : '?'}:${typeof port === 'number' ? port : '?'}`;
}
