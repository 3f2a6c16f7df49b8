import { z } from 'zod';
import {
  ApprovalModeSchema,
  AuditRecordSchema,
  RoutineInfoSchema,
  DecisionSchema,
  JobInfoSchema,
  ModelInfoSchema,
  RoleSchema,
  SessionInfoSchema,
  StoredPermissionSchema,
} from './common.js';
import { SessionEventSchema } from './events.js';
import { CustomCommandSchema } from './custom-commands.js';
import { SessionUsageSchema } from './session-usage.js';
import { DEFAULT_SHARE_SECONDS, MAX_SHARE_SECONDS, ShareInfoSchema, ShareNameSchema, ShareRoleSchema, WhoAmISchema, type ShareRight } from './shares.js';

/**
 * Client → server commands. Every command has a payload (validated by `payload`) and an ack
 * whose `data` has the shape of `result`. `access` says who may send it:
 * - `any`: any authenticated socket;
 * - `control`: a socket authenticated with the control token;
 * - `driver`: a socket attached to the session as driver.
 * `share` names the right that opens a command to the holder of a share (only for the share's
 * own session); a command without it answers a share `forbidden`.
 */
const sessionId = z.string().min(1);

/** One reflection of a self-evolving agent (`tandem agents evolution NAME`). */
const EvolutionRecordSchema = z.object({
  id: z.string(),
  agent: z.string(),
  at: z.string(),
  trigger: z.enum(['scheduled', 'run_now']),
  status: z.enum(['applied', 'no_change', 'failed']),
  score: z.number(),
  signals: z.number(),
  model: z.string().optional(),
  tokens: z.number(),
  summary: z.string(),
  changes: z.array(z.object({ kind: z.enum(['skill_created', 'skill_patched', 'profile_updated']), name: z.string() })),
  notes: z.array(z.string()),
  revertedAt: z.string().optional(),
  revertedBy: z.string().optional(),
});

/** The longest message `session:send` takes, in characters. */
export const MAX_MESSAGE_CHARS = 200_000;

/** The most events one `session:attach` tail or one `session:history` page carries. */
export const MAX_PAGE_EVENTS = 2000;

function command<P extends z.ZodType, R extends z.ZodType>(access: 'any' | 'control' | 'driver', payload: P, result: R, share?: ShareRight) {
  return { access, payload, result, share } as const;
}

export const Commands = {
  'session:list': command('any', z.object({}).optional().default({}), z.object({ sessions: z.array(SessionInfoSchema) }), 'view'),
  'session:create': command(
    'control',
    z.object({
      title: z.string().max(200).optional(),
      cwd: z.string().min(1).optional(),
      model: z.string().min(1).optional(),
      searchOnly: z.boolean().optional(),
    }),
    z.object({ session: SessionInfoSchema }),
  ),
  /**
   * Replays the events after `afterSeq` (all of them by default), then live. With `tail: N` (and
   * no `afterSeq`, or 0) only the last N events come, after the events still in effect before them
   * (the open turn's start, unanswered permission requests, the last presence and context
   * usage): one screen, however long the log. `hasMore`: older events exist before `firstSeq`,
   * the oldest seq of the tail; fetch them with `session:history`.
   */
  'session:attach': command(
    'any',
    z.object({
      sessionId,
      role: RoleSchema,
      afterSeq: z.number().int().min(0).optional(),
      tail: z.number().int().min(1).max(MAX_PAGE_EVENTS).optional(),
    }),
    z.object({
      session: SessionInfoSchema,
      events: z.array(SessionEventSchema),
      hasMore: z.boolean().optional(),
      firstSeq: z.number().int().optional(),
    }),
    'view',
  ),
  /** Older history, page by page: up to `limit` persisted events with seq < `beforeSeq`, in order; `firstSeq` is the oldest returned. */
  'session:history': command(
    'any',
    z.object({ sessionId, beforeSeq: z.number().int().min(1), limit: z.number().int().min(1).max(MAX_PAGE_EVENTS) }),
    z.object({ events: z.array(SessionEventSchema), hasMore: z.boolean(), firstSeq: z.number().int().optional() }),
    'view',
  ),
  'session:detach': command('any', z.object({ sessionId }), z.object({}), 'view'),
  /**
   * A message: starts a turn, or steers the running one. `maxIterations` caps the turn it starts
   * (ignored when it steers). `turnId`: the turn the message started or steers (absent when it
   * started none, e.g. `@commander` alone).
   */
  'session:send': command(
    'driver',
    z.object({ sessionId, text: z.string().min(1).max(MAX_MESSAGE_CHARS), maxIterations: z.number().int().min(1).max(1000).optional() }),
    z.object({ mode: z.enum(['turn', 'steer']), turnId: z.string().optional() }),
    'send',
  ),
  'session:cancel': command('driver', z.object({ sessionId }), z.object({}), 'send'),
  'permission:respond': command(
    'driver',
    z.object({ sessionId, requestId: z.string().min(1), decision: DecisionSchema, scope: z.string().optional() }),
    z.object({}),
    'approve',
  ),
  'command:input': command('driver', z.object({ sessionId, callId: z.string().min(1), data: z.string().max(65_536) }), z.object({}), 'send'),
  'session:new': command('driver', z.object({ sessionId }), z.object({ consolidated: z.boolean(), reason: z.string().optional() })),
  'session:compact': command('driver', z.object({ sessionId }), z.object({ compacted: z.boolean(), reason: z.string().optional() })),
  'audit:query': command(
    'control',
    z.object({ sessionId: z.string().optional(), limit: z.number().int().min(1).max(1000).optional() }),
    z.object({ records: z.array(AuditRecordSchema) }),
  ),
  'jobs:list': command('any', z.object({ sessionId }), z.object({ jobs: z.array(JobInfoSchema) }), 'view'),
  'job:stop': command('driver', z.object({ sessionId, jobId: z.string().min(1) }), z.object({}), 'send'),
  /** `write: true` also grants a protected location (`.git/hooks/`, `.git/config`, `.tandem/`, `.mcp.json`, `.claude/`, `.agents/`) for the session. */
  'sandbox:grant': command('driver', z.object({ sessionId, path: z.string().min(1), write: z.boolean().optional() }), z.object({ path: z.string() })),
  /**
   * Takes the last `turns` turns back (default 1): the files they changed are restored (files
   * they created removed) and the conversation goes back to before them; every client gets an
   * `undo` event. A file changed since by someone else is left alone and listed in `conflicts`.
   */
  'session:undo': command(
    'driver',
    z.object({ sessionId, turns: z.number().int().min(1).max(10_000).optional() }),
    z.object({ files: z.array(z.string()), conflicts: z.array(z.object({ path: z.string(), reason: z.string() })) }),
  ),
  /** One turn's changes (default the last): each file's status and the unified diff. */
  'session:diff': command(
    'driver',
    z.object({ sessionId, turnId: z.string().min(1).optional() }),
    z.object({
      files: z.array(z.object({ path: z.string(), status: z.enum(['added', 'modified', 'deleted']) })),
      diff: z.string(),
      turnId: z.string().optional(),
    }),
  ),
  /** The turns that can be taken back, oldest first (for `/rewind`); `off` says why there are none when checkpoints are off. */
  'session:checkpoints': command(
    'any',
    z.object({ sessionId }),
    z.object({
      turns: z.array(z.object({ turnId: z.string(), startedAt: z.string(), cancelled: z.boolean(), files: z.number().int(), text: z.string().optional() })),
      off: z.string().optional(),
    }),
  ),
  'permissions:list': command('control', z.object({ workspace: z.string().optional() }), z.object({ permissions: z.array(StoredPermissionSchema) })),
  'permissions:revoke': command('control', z.object({ id: z.string().min(1) }), z.object({})),
  'models:list': command('any', z.object({}).optional().default({}), z.object({ models: z.array(ModelInfoSchema) })),
  /** Changes the session's model, approval mode or title; every attached client sees a `session_configured` event. */
  'session:configure': command(
    'driver',
    z.object({
      sessionId,
      model: z.string().min(1).max(200).optional(),
      mode: ApprovalModeSchema.optional(),
      title: z.string().min(1).max(200).optional(),
      searchOnly: z.boolean().optional(),
    }),
    z.object({ session: SessionInfoSchema }),
  ),
  /** Deletes a session and its log; `conflict` while a turn runs. */
  'session:delete': command('control', z.object({ sessionId }), z.object({})),
  /** Discards the conversation without memory consolidation (the TUI asks for confirmation first). */
  'session:clear': command('driver', z.object({ sessionId }), z.object({})),
  /** What the session's turns used and cost so far, per model that answered and in total (the TUI's `/cost`). */
  'session:usage': command('any', z.object({ sessionId }), z.object({ total: SessionUsageSchema, models: z.array(SessionUsageSchema) })),
  /**
   * The next turn builds the system prompt anew (AGENTS.md, the date, memory) instead of the one
   * frozen at the session's start; the provider's prompt cache is then written again once.
   */
  'session:reload': command('driver', z.object({ sessionId }), z.object({})),
  /** What `tandem status` shows: the server's identity, uptime and which providers have a key (names only). */
  'server:status': command(
    'any',
    z.object({}).optional().default({}),
    z.object({
      version: z.string(),
      pid: z.number().int(),
      startedAt: z.string(),
      uptimeMs: z.number(),
      sessions: z.number().int(),
      running: z.number().int(),
      providers: z.array(z.string()),
      /** A digest of the provider variables the server was started with (never the values). */
      envDigest: z.string(),
      /** The OS sandbox around commands: `bubblewrap`, or `off: reason`. */
      sandbox: z.string().optional(),
    }),
  ),
  /** Routines (scheduled prompts) of this server; `status`, `description` and `note` added to the contract's fields. */
  'routine:list': command('any', z.object({}).optional().default({}), z.object({ routines: z.array(RoutineInfoSchema) })),
  'routine:cancel': command('control', z.object({ id: z.string().min(1) }), z.object({ routine: RoutineInfoSchema })),
  'memory:show': command(
    'any',
    z.object({ sessionId }),
    z.object({
      memory: z.string(),
      history: z.string(),
      /** Recall items (agent notes and the user profile); quarantined writes are never listed. */
      items: z.array(z.object({ id: z.string(), kind: z.enum(['note', 'profile']), text: z.string(), createdAt: z.string() })).optional(),
    }),
  ),
  /**
   * The MCP servers of a session's workspace (or of `cwd`; with neither, of the server's default
   * workspace), user and project scope, each with its live status; `reason` when failed or
   * waiting for approval; `tools` are the names the model sees (`mcp__SERVER__TOOL`).
   */
  'mcp:list': command(
    'any',
    z
      .object({ sessionId: z.string().min(1).optional(), cwd: z.string().min(1).optional() })
      .optional()
      .default({}),
    z.object({
      servers: z.array(
        z.object({
          name: z.string(),
          scope: z.enum(['project', 'user']),
          status: z.enum(['connected', 'starting', 'failed', 'needs_approval', 'disabled']),
          reason: z.string().optional(),
          tools: z.array(z.string()),
        }),
      ),
    }),
  ),
  /** The skills of a session's workspace (or of `cwd`, else the default workspace), with their root and status. */
  'skills:list': command(
    'any',
    z
      .object({ sessionId: z.string().min(1).optional(), cwd: z.string().min(1).optional() })
      .optional()
      .default({}),
    z.object({
      skills: z.array(
        z.object({
          name: z.string(),
          description: z.string(),
          root: z.string(),
          dir: z.string(),
          status: z.enum(['ok', 'shadowed', 'invalid', 'quarantined', 'refused']),
          reason: z.string().optional(),
          command: z.string().optional(),
        }),
      ),
    }),
  ),
  /**
   * Self-evolution of an agent with `evolve: true`: its reflections, newest last; with `runNow` a
   * reflection runs first (`ran`), with `revert` that reflection's changes are put back
   * (`reverted`). The definition is looked up in `cwd` (or the session's workspace), else where
   * its signals came from, else the user's agents.
   */
  'agents:evolution': command(
    'control',
    z.object({
      name: z.string().min(1).max(64),
      cwd: z.string().min(1).optional(),
      sessionId: z.string().min(1).optional(),
      runNow: z.boolean().optional(),
      revert: z.string().min(1).optional(),
    }),
    z.object({ records: z.array(EvolutionRecordSchema), ran: EvolutionRecordSchema.optional(), reverted: EvolutionRecordSchema.optional() }),
  ),
  /**
   * The external packages of the server's data directory (`tandem packages`): each with its kind,
   * executables, skill folders and the state of its dependency install.
   */
  'packages:list': command(
    'any',
    z.object({}).optional().default({}),
    z.object({
      packages: z.array(
        z.object({
          name: z.string(),
          source: z.string(),
          commit: z.string(),
          kind: z.enum(['skill', 'cli', 'both']),
          bins: z.array(z.string()),
          skills: z.array(z.string()),
          status: z.enum(['ok', 'missing']),
          install: z.object({ command: z.string(), status: z.enum(['pending', 'done', 'failed', 'declined']), reason: z.string().optional() }).optional(),
        }),
      ),
      /** Set when packages.json cannot be read. */
      problem: z.string().optional(),
    }),
  ),
  /**
   * Lets one person into one session with a role (see shares.ts); the token is in this answer
   * only, never stored or shown again. Control token only, as every `share:*` command.
   */
  'share:create': command(
    'control',
    z.object({
      sessionId,
      name: ShareNameSchema,
      role: ShareRoleSchema,
      expiresInSec: z.number().int().min(1).max(MAX_SHARE_SECONDS).optional().default(DEFAULT_SHARE_SECONDS),
    }),
    z.object({ share: ShareInfoSchema, token: z.string() }),
  ),
  /** Shares (one session's, or all), active ones and those ended in the last 7 days; `connected` counts sockets using each now. */
  'share:list': command(
    'control',
    z
      .object({ sessionId: z.string().min(1).optional() })
      .optional()
      .default({}),
    z.object({ shares: z.array(ShareInfoSchema) }),
  ),
  /** Ends a share at once: its sockets are closed on every node and its token refused from now on. */
  'share:revoke': command('control', z.object({ id: z.string().min(1) }), z.object({ share: ShareInfoSchema })),
  /** The custom slash commands of a session's workspace and of the user (see custom-commands.ts), read from the files now. */
  'commands:list': command('any', z.object({ sessionId }), z.object({ commands: z.array(CustomCommandSchema) }), 'send'),
  /** Who this connection is: its token kind, name, and for a share its session, role and rights. */
  'client:whoami': command('any', z.object({}).optional().default({}), WhoAmISchema, 'view'),
} as const;

export type CommandName = keyof typeof Commands;
export type CommandPayload<C extends CommandName> = z.input<(typeof Commands)[C]['payload']>;
export type CommandResult<C extends CommandName> = z.infer<(typeof Commands)[C]['result']>;

/** Name of the one server → client event; its payload is a `SessionEvent`. */
export const SESSION_EVENT = 'session:event';

/** What a client passes in `io(url, { auth })`. */
export const HandshakeAuthSchema = z.object({
  token: z.string().min(1),
  name: z.string().min(1).max(64).optional(),
  protocolVersion: z.number().int().optional(),
});
export type HandshakeAuth = z.infer<typeof HandshakeAuthSchema>;
