import { z } from 'zod';
import { ApprovalModeSchema, ClientInfoSchema, DangerSchema, DecisionSchema, UsageSchema } from './common.js';
import { FileArgsSchema, ToolKindSchema } from './tool-calls.js';

/**
 * Session events: the one stream every client folds into its view.
 * Each persisted event carries the session's next `seq`. Ephemeral events (streamed text)
 * carry the seq of the last persisted event and `ephemeral: true`; they are never replayed,
 * but a client attaching mid-stream receives the partial text as one `text_delta`.
 */
const base = {
  sessionId: z.string(),
  seq: z.number().int(),
  ts: z.string(),
  ephemeral: z.boolean().optional(),
  /** The agent that caused the event: `commander`, a defined agent's name, or `worker-N` (absent: the commander). */
  agent: z.string().optional(),
  /** For a worker's events: the task it runs (the `taskId` of its `agent_started`). */
  taskId: z.string().optional(),
};

/** `shape` may narrow a base field (agent_started's `taskId` is required): extend overrides, a spread would intersect the types to never. */
function event<T extends string, S extends z.ZodRawShape>(type: T, shape: S) {
  return z.object({ ...base, type: z.literal(type) }).extend(shape);
}

const turnId = z.string();
const callId = z.string();

export const EventSchemas = {
  session_info: event('session_info', { title: z.string(), cwd: z.string(), model: z.string() }),
  /** A driver changed the model, approval mode or title (`session:configure`); only changed fields are present. */
  session_configured: event('session_configured', {
    by: z.string(),
    model: z.string().optional(),
    mode: ApprovalModeSchema.optional(),
    title: z.string().optional(),
    searchOnly: z.boolean().optional(),
  }),
  user_message: event('user_message', { text: z.string(), by: z.string(), mode: z.enum(['turn', 'steer']) }),
  turn_started: event('turn_started', { turnId, model: z.string() }),
  thinking: event('thinking', { turnId }),
  text_delta: event('text_delta', { turnId, delta: z.string() }),
  assistant_text: event('assistant_text', { turnId, iteration: z.number().int(), text: z.string() }),
  tool_call: event('tool_call', {
    turnId,
    iteration: z.number().int(),
    callId,
    tool: z.string(),
    args: z.unknown(),
    danger: DangerSchema,
    /** The model's argument text, present only when it was not valid JSON (then `args` is absent). */
    rawArgs: z.string().optional(),
    /** Why the call runs without asking, or why it is refused (e.g. "read-only command: ls, grep"). */
    reason: z.string().optional(),
    /** For commands: the OS sandbox they run in (`bubblewrap`, `bubblewrap (no network)`, `off: reason`). */
    sandbox: z.string().optional(),
    /** On the first call of a reply: what the model request that asked for the reply's calls used and cost. */
    usage: UsageSchema.optional(),
    /** What kind of thing the tool does, as the tool declares it (absent from older servers). */
    kind: ToolKindSchema.optional(),
    /** One line saying what this call does (the command, the path, the search), written by the tool. */
    summary: z.string().optional(),
    /** For a file tool: which arguments hold the file and its change (see FileArgs). */
    file: FileArgsSchema.optional(),
    /** When the call runs without asking: how that was decided (as `tool_result.decision`). */
    decision: z.string().optional(),
    decidedBy: z.string().optional(),
  }),
  command_output: event('command_output', { callId, data: z.string() }),
  command_input: event('command_input', { callId, data: z.string(), by: z.string() }),
  tool_result: event('tool_result', {
    turnId,
    callId,
    tool: z.string(),
    isError: z.boolean(),
    output: z.string(),
    durationMs: z.number(),
    /** How the call ended; the same values as `AuditRecord.outcome` (absent from older servers). */
    outcome: z.enum(['ok', 'error', 'denied', 'cancelled', 'timeout', 'blocked', 'refused']).optional(),
    /**
     * Images the tool returned (an MCP tool's image content): type, decoded size and `ref`, the
     * name of the copy kept in the session's directory (`images/<ref>`). Never the bytes.
     */
    images: z.array(z.object({ mimeType: z.string(), bytes: z.number().int().nonnegative(), ref: z.string().optional() })).optional(),
    /**
     * How the call was let through or refused, as the audit record's `decision` (`safe`,
     * `read_only`, `session_rule`, `stored_rule`, `auto_edit`, `full_auto`, one of the five
     * answers, `blacklisted`, `denied_by_rule`, `mode_refused`, `timeout`, `cancelled`, `error`),
     * or `not_checked` when no gate saw it (bad arguments, the path sandbox, the loop guard).
     */
    decision: z.string().optional(),
    /** Who decided: `system`, or the person (or share) who answered or made the rule. */
    decidedBy: z.string().optional(),
  }),
  turn_done: event('turn_done', {
    turnId,
    iterations: z.number().int(),
    /** How the turn ended: a final answer, or the reason it stopped early (an agent_error precedes those). */
    outcome: z.enum(['answered', 'error', 'max_iterations', 'permission_timeout', 'loop_stopped']).optional(),
    model: z.string().optional(),
    usage: UsageSchema.optional(),
  }),
  turn_cancelled: event('turn_cancelled', { turnId, note: z.string() }),
  turn_interrupted: event('turn_interrupted', { turnId, reason: z.string() }),
  agent_error: event('agent_error', { code: z.string(), message: z.string(), turnId: turnId.optional() }),
  presence: event('presence', { clients: z.array(ClientInfoSchema) }),

  // agents (a commander and its workers)
  /** A worker starts on a task: `parent` dispatched it; `visible` is false for an anonymous worker (hidden unless expanded). */
  agent_started: event('agent_started', { taskId: z.string(), parent: z.string(), task: z.string(), visible: z.boolean(), turnId: turnId.optional() }),
  /** A worker finished: its final answer (or its error) is `result`, which the parent receives as its tool result. */
  agent_done: event('agent_done', {
    taskId: z.string(),
    isError: z.boolean(),
    result: z.string(),
    iterations: z.number().int().optional(),
    usage: UsageSchema.optional(),
  }),
  /** The floor (who answers a message that names no one) moved to `agent`; `by` is who moved it (a client name or an agent). */
  floor_changed: event('floor_changed', { by: z.string() }),

  // permissions, rate limits, guards
  permission_request: event('permission_request', {
    requestId: z.string(),
    callId,
    tool: z.string(),
    args: z.unknown(),
    danger: DangerSchema,
    expiresAt: z.string(),
    /** What a stored decision would cover, offered in the dialog (e.g. the command prefixes). */
    scopes: z.array(z.string()).optional(),
    preview: z.string().optional(),
    /** The call's one-line summary (as its `tool_call.summary`). */
    summary: z.string().optional(),
  }),
  permission_resolved: event('permission_resolved', {
    requestId: z.string(),
    decision: DecisionSchema,
    by: z.string(),
    reason: z.enum(['answered', 'timeout', 'expired', 'stored', 'session']).optional(),
    scope: z.string().optional(),
  }),
  rate_limit_wait: event('rate_limit_wait', { callId, tool: z.string(), waitMs: z.number(), reason: z.string() }),
  loop_warning: event('loop_warning', { tool: z.string(), count: z.number().int(), stopped: z.boolean() }),

  // background jobs and the sandbox
  job_started: event('job_started', { jobId: z.string(), command: z.string(), logPath: z.string() }),
  job_exited: event('job_exited', { jobId: z.string(), exitCode: z.number().nullable(), stoppedBy: z.string().optional() }),
  /** `write`: a protected location (`.git/hooks`, `.mcp.json`, …) the agent may now change in this session. */
  sandbox_granted: event('sandbox_granted', { path: z.string(), by: z.string(), write: z.boolean().optional() }),

  // checkpoints (undo)
  /** A turn ended having changed these workspace files (its checkpoint can put them back: session:undo). */
  checkpoint: event('checkpoint', {
    turnId,
    files: z.array(z.object({ path: z.string(), status: z.enum(['added', 'modified', 'deleted']) })),
    /** The turn was cancelled: its conversation is gone already, its files are still changed. */
    cancelled: z.boolean().optional(),
  }),
  /**
   * A driver took the last `turns` turns back (`session:undo`): `files` were restored (created
   * ones removed), the conversation went back to before those turns (`turnIds`); `conflicts` were
   * changed since by someone else and left alone.
   */
  undo: event('undo', {
    turns: z.number().int(),
    files: z.array(z.string()),
    by: z.string(),
    turnIds: z.array(z.string()).optional(),
    conflicts: z.array(z.object({ path: z.string(), reason: z.string() })).optional(),
  }),

  // models
  model_fallback: event('model_fallback', { from: z.string(), to: z.string(), reason: z.string() }),
  model_retry: event('model_retry', { model: z.string(), attempt: z.number().int(), delayMs: z.number(), reason: z.string() }),
  model_warning: event('model_warning', { model: z.string(), message: z.string() }),
  /** A turn's tokens (every request's), the parts read from and written to the prompt cache, and its cost (see `UsageSchema`). */
  usage: event('usage', {
    turnId,
    model: z.string(),
    inputTokens: z.number(),
    outputTokens: z.number(),
    cacheReadTokens: z.number().optional(),
    cacheWriteTokens: z.number().optional(),
    costUsd: z.number().optional(),
  }),

  // context and memory
  context_usage: event('context_usage', { usedTokens: z.number(), windowTokens: z.number(), percent: z.number() }),
  compaction: event('compaction', {
    foldedMessages: z.number().int(),
    tokensBefore: z.number(),
    tokensAfter: z.number(),
    summary: z.string(),
  }),
  compaction_skipped: event('compaction_skipped', { reason: z.string() }),
  conversation_cleared: event('conversation_cleared', { by: z.string() }),
  memory_consolidated: event('memory_consolidated', { model: z.string(), historyEntry: z.string() }),
  memory_consolidation_failed: event('memory_consolidation_failed', { reason: z.string() }),
  memory_quarantined: event('memory_quarantined', { kind: z.string(), reason: z.string() }),

  // extensions (MCP servers, skills)
  /** Something about a skill or MCP server the people watching should see (a quarantined skill, a failed server). */
  extension_notice: event('extension_notice', {
    kind: z.enum(['skill_quarantined', 'skill_invalid', 'skill_refused', 'skill_clash', 'mcp_failed']),
    name: z.string(),
    message: z.string(),
  }),

  // self-evolution (an agent whose definition says `evolve: true`)
  /**
   * A reflection of an evolving agent ran (`tandem agents evolution NAME` lists them), or one was
   * reverted: what it concluded and what it changed in the agent's private library.
   */
  evolution: event('evolution', {
    agent: z.string(),
    id: z.string(),
    status: z.enum(['applied', 'no_change', 'failed', 'reverted']),
    trigger: z.enum(['scheduled', 'run_now', 'revert']),
    summary: z.string(),
    changes: z.array(z.object({ kind: z.enum(['skill_created', 'skill_patched', 'profile_updated']), name: z.string() })),
    model: z.string().optional(),
    reason: z.string().optional(),
  }),
} as const;

export const SessionEventSchema = z.discriminatedUnion('type', [
  EventSchemas.session_info,
  EventSchemas.session_configured,
  EventSchemas.user_message,
  EventSchemas.turn_started,
  EventSchemas.thinking,
  EventSchemas.text_delta,
  EventSchemas.assistant_text,
  EventSchemas.tool_call,
  EventSchemas.command_output,
  EventSchemas.command_input,
  EventSchemas.tool_result,
  EventSchemas.turn_done,
  EventSchemas.turn_cancelled,
  EventSchemas.turn_interrupted,
  EventSchemas.agent_error,
  EventSchemas.presence,
  EventSchemas.agent_started,
  EventSchemas.agent_done,
  EventSchemas.floor_changed,
  EventSchemas.permission_request,
  EventSchemas.permission_resolved,
  EventSchemas.rate_limit_wait,
  EventSchemas.loop_warning,
  EventSchemas.job_started,
  EventSchemas.job_exited,
  EventSchemas.sandbox_granted,
  EventSchemas.model_fallback,
  EventSchemas.model_retry,
  EventSchemas.model_warning,
  EventSchemas.usage,
  EventSchemas.context_usage,
  EventSchemas.compaction,
  EventSchemas.compaction_skipped,
  EventSchemas.conversation_cleared,
  EventSchemas.memory_consolidated,
  EventSchemas.memory_consolidation_failed,
  EventSchemas.memory_quarantined,
  EventSchemas.extension_notice,
  EventSchemas.evolution,
  EventSchemas.checkpoint,
  EventSchemas.undo,
]);

export type SessionEvent = z.infer<typeof SessionEventSchema>;
export type SessionEventType = SessionEvent['type'];
export type EventOf<T extends SessionEventType> = Extract<SessionEvent, { type: T }>;

/** An event before the server stamps it: what the engine and the server's parts emit. */
export type EventBody = SessionEvent extends infer E ? (E extends SessionEvent ? Omit<E, 'sessionId' | 'seq' | 'ts' | 'ephemeral'> : never) : never;

/**
 * Events that are broadcast but never written to the log: streamed text (a client attaching
 * mid-stream gets the partial text instead) and `thinking`, the "a model request is under way"
 * mark of each iteration, which a replay does not need (`turn_started` and every `tool_result`
 * already put a turn back to thinking). Bookkeeping an attach needs stays persisted.
 */
export const EPHEMERAL_EVENT_TYPES: ReadonlySet<SessionEventType> = new Set(['text_delta', 'thinking']);

/** The event types that end a turn (a final answer or an early stop, a cancel, a server stop): the one definition. */
export const TURN_END_TYPES: ReadonlySet<string> = new Set<SessionEvent['type']>(['turn_done', 'turn_cancelled', 'turn_interrupted']);

/** Whether an event ends a turn (see TURN_END_TYPES), narrowed to carry that turn's id. */
export function endsTurn<E extends { type: string }>(event: E): event is E & { type: 'turn_done' | 'turn_cancelled' | 'turn_interrupted'; turnId: string } {
  return TURN_END_TYPES.has(event.type);
}
