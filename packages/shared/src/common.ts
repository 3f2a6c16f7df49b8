import { z } from 'zod';
import { ShareRoleSchema } from './shares.js';

export const DangerSchema = z.enum(['safe', 'medium', 'dangerous']);
export type Danger = z.infer<typeof DangerSchema>;

export const RoleSchema = z.enum(['driver', 'viewer']);
export type Role = z.infer<typeof RoleSchema>;

export const DecisionSchema = z.enum(['allow_once', 'allow_session', 'allow_forever', 'deny_once', 'deny_forever']);
export type Decision = z.infer<typeof DecisionSchema>;

/** `offline`: in a cluster, the node that runs the session is gone (listed with its last known state). */
export const SessionStatusSchema = z.enum(['idle', 'running', 'waiting_permission', 'offline']);
export type SessionStatus = z.infer<typeof SessionStatusSchema>;

/**
 * How a session asks before tools run: `ask` (default) asks for every medium/dangerous call;
 * `auto-edit` runs file edits inside the workspace without asking (commands still ask);
 * `read-only` refuses every writing tool and every command that is not read-only;
 * `full-auto` runs without asking whatever the blacklist, the sandbox, stored deny rules and the
 * rate limit let through (still audited; tools that always ask still ask).
 * The blacklist and the sandbox apply in every mode.
 */
export const ApprovalModeSchema = z.enum(['ask', 'auto-edit', 'read-only', 'full-auto']);
export type ApprovalMode = z.infer<typeof ApprovalModeSchema>;
export const APPROVAL_MODES = ApprovalModeSchema.options;

export const SessionInfoSchema = z.object({
  id: z.string(),
  title: z.string(),
  cwd: z.string(),
  model: z.string(),
  createdAt: z.string(),
  status: SessionStatusSchema,
  lastSeq: z.number().int(),
  /** When the session was last used: the time of its last persisted event (`tandem -c` opens the folder's latest). */
  updatedAt: z.string().optional(),
  /** The approval mode; absent from servers older than protocol 2 (read it as `ask`). */
  mode: ApprovalModeSchema.optional(),
  /** How many clients are attached right now. */
  clients: z.number().int().optional(),
  /** The OS sandbox around this session's commands: e.g. `bubblewrap`, `bubblewrap (no network)`, or `off: <reason>`. */
  sandbox: z.string().optional(),
  /** Search only (the "globe" toggle): the model is offered web_search and nothing else. */
  searchOnly: z.boolean().optional(),
  /** Who answers a message that names no one: `commander`, or the agent it handed the floor to. */
  floor: z.string().optional(),
  /** The agents defined for this session's workspace, which `@NAME` can address (the commander is always there). */
  agents: z.array(z.object({ name: z.string(), description: z.string(), interactive: z.boolean() })).optional(),
});
export type SessionInfo = z.infer<typeof SessionInfoSchema>;

/** One attached client. `shareRole`: it came in with a share of that role (its name is the share's). */
export const ClientInfoSchema = z.object({ id: z.string(), name: z.string(), role: RoleSchema, shareRole: ShareRoleSchema.optional() });
export type ClientInfo = z.infer<typeof ClientInfoSchema>;

/**
 * Tokens a turn (or a request) used. `inputTokens` counts every prompt token, cached or not;
 * `cacheReadTokens` / `cacheWriteTokens` are the parts of it read from and written to the
 * provider's prompt cache; `costUsd` is its price from the model catalog (absent when a model
 * that answered has no price there). The last three are absent from older servers' events.
 */
export const UsageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadTokens: z.number().optional(),
  cacheWriteTokens: z.number().optional(),
  costUsd: z.number().optional(),
});
export type Usage = z.infer<typeof UsageSchema>;

export const AuditRecordSchema = z.object({
  id: z.string(),
  ts: z.string(),
  sessionId: z.string(),
  turnId: z.string().optional(),
  /** The agent that made the call (`commander`, a defined agent, a worker); absent from older records. */
  agent: z.string().optional(),
  callId: z.string(),
  tool: z.string(),
  danger: DangerSchema,
  args: z.unknown(),
  resultSummary: z.string(),
  isError: z.boolean(),
  durationMs: z.number(),
  decision: z.string(),
  decidedBy: z.string().optional(),
  /**
   * How the call ended: `ok`, `error` (the tool failed), `denied` (a person or a stored rule said
   * no), `cancelled`, `timeout` (the tool or the permission wait), `blocked` (the blacklist),
   * `refused` (the path sandbox or the session's approval mode). Every call leaves one record.
   */
  outcome: z.enum(['ok', 'error', 'denied', 'cancelled', 'timeout', 'blocked', 'refused']).optional(),
  /**
   * The model request whose reply asked for this call: its tokens and cost. The calls of one reply
   * share that request; only the first of them carries it, so a sum over records counts each
   * request once.
   */
  usage: UsageSchema.optional(),
});
export type AuditRecord = z.infer<typeof AuditRecordSchema>;

export const JobInfoSchema = z.object({
  jobId: z.string(),
  command: z.string(),
  startedAt: z.string(),
  status: z.enum(['running', 'exited', 'stopped']),
  exitCode: z.number().nullable().optional(),
  logPath: z.string(),
});
export type JobInfo = z.infer<typeof JobInfoSchema>;

export const StoredPermissionSchema = z.object({
  id: z.string(),
  workspace: z.string(),
  tool: z.string(),
  /** For run_command: an exact command or an explicit prefix pattern; for file tools: a path, or absent for the whole tool. */
  pattern: z.string().optional(),
  match: z.enum(['tool', 'exact', 'prefix', 'path']),
  effect: z.enum(['allow', 'deny']),
  by: z.string(),
  createdAt: z.string(),
});
export type StoredPermission = z.infer<typeof StoredPermissionSchema>;

export const ModelInfoSchema = z.object({
  id: z.string(),
  label: z.string(),
  provider: z.string(),
  contextWindow: z.number(),
  maxOutput: z.number(),
  tools: z.boolean(),
  tier: z.string(),
  description: z.string(),
});
export type ModelInfo = z.infer<typeof ModelInfoSchema>;

/** A scheduled routine as `routine:list` gives it; times are ISO 8601 in the routine's zone. */
export const RoutineInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  schedule: z.string(),
  prompt: z.string(),
  sessionId: z.string(),
  nextRunAt: z.string().optional(),
  lastRunAt: z.string().optional(),
  timezone: z.string(),
  status: z.enum(['active', 'done', 'cancelled', 'disabled']),
  description: z.string(),
  note: z.string().optional(),
});
export type RoutineInfo = z.infer<typeof RoutineInfoSchema>;
