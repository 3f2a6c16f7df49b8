import type {
  ApprovalMode,
  ClientInfo,
  Danger,
  Decision,
  EventOf,
  JobInfo,
  Role,
  SessionInfo,
  ShareRight,
  ShareRole,
  ToolKind,
  Usage,
  WhoAmI,
} from '@tandem/shared';
import type { OutputBuffer } from './output-buffer.js';

/** How the TUI is connected to the server, as the status line shows it. */
export type ConnectionStatus =
  | { status: 'connecting' }
  | { status: 'connected' }
  /** `retryAt`: when the next attempt starts (ms since the epoch), for the status line's countdown. */
  | { status: 'reconnecting'; attempt: number; reason: string; retryAt?: number | undefined }
  /** `share_ended`: the share this client came in with was revoked or expired; the server refuses it from now on. */
  | { status: 'refused'; reason: 'unauthorized' | 'protocol_mismatch' | 'share_ended' | 'error'; message: string }
  | { status: 'closed' };

export interface UserItem {
  kind: 'user';
  seq: number;
  text: string;
  by: string;
  steer: boolean;
}

/** Who caused an item: the event's `agent` (absent: a session without agents) and, for a worker, its `taskId`. */
export interface AgentTag {
  agent?: string;
  taskId?: string;
  /** The item belongs to an anonymous worker (agent_started.visible false): drawn only when hidden workers are expanded. */
  hidden?: true;
}

export interface AssistantItem extends AgentTag {
  kind: 'assistant';
  turnId: string;
  text: string;
  /** False while text_delta events are still being appended. */
  final: boolean;
}

/** `stopped`: the turn was cancelled or interrupted before the tool reported a result. */
export interface ResultExcerpt {
  lines: string[];
  /** Lines left out, before (tail excerpt) or after (head excerpt) the kept ones. */
  omitted: number;
  from: 'head' | 'tail';
  /** One line per image the tool returned (`[image image/png 12 KB]`); the bytes never reach the TUI. */
  images?: string[];
}

export type ToolStatus = 'running' | 'ok' | 'error' | 'stopped';

export interface ToolItem extends AgentTag {
  kind: 'tool';
  turnId: string;
  callId: string;
  tool: string;
  /** What kind of thing the tool does, as its tool_call said (absent from older servers). */
  toolKind?: ToolKind;
  /** One line: the command verbatim, the path, the pattern ... (the tool's own `tool_call.summary`). */
  summary: string;
  danger: Danger;
  status: ToolStatus;
  durationMs?: number;
  /** Why the call ran (or was refused) without asking, e.g. "read-only command: ls" (tool_call.reason). */
  reason?: string;
  /** How the permission request for this call was answered, e.g. "allowed once by ana". */
  permission?: { text: string; allowed: boolean };
  /** Live output of a running command (ANSI stripped, capped). */
  live?: OutputBuffer;
  /** A few lines of the result once it arrived: the last ones for commands, the first otherwise. */
  result?: ResultExcerpt;
}

export type NoticeLevel = 'info' | 'warn' | 'error';

export interface NoticeItem {
  kind: 'notice';
  level: NoticeLevel;
  text: string;
  /** Lines meant to be copied (a share's link and attach line): each drawn on its own line, undecorated, under its label. */
  copy?: readonly CopyLine[];
}

export interface CopyLine {
  label: string;
  text: string;
}

export interface RunCall {
  callId: string;
  tool: string;
  summary: string;
  status: ToolStatus;
  durationMs?: number;
}

/** One worker's line in a run summary. */
export interface RunAgent {
  agent: string;
  taskId: string;
  status: AgentStatus;
  iterations: number;
  usage?: Usage;
}

export interface RunSummaryItem {
  kind: 'run_summary';
  turnId: string;
  model: string;
  iterations: number;
  outcome: string;
  calls: RunCall[];
  usage?: Usage;
  /** The workers the turn started, in start order (absent when it started none). */
  agents?: RunAgent[];
  /** The agent whose turn it was when not the commander: the box's title names it. */
  agent?: string;
}

/** A worker started (agent_started) or finished (agent_done): one line each, in event order. */
export interface AgentItem {
  kind: 'agent';
  phase: 'started' | 'done';
  agent: string;
  taskId: string;
  /** Who dispatched it (agent_started.parent). */
  parent: string;
  /** The task it was given (started), or its final answer or error (done). */
  text: string;
  /** An anonymous worker: its other items are hidden unless expanded. */
  visible: boolean;
  /** Started lines follow the worker (running, then done/error/stopped); a done line says how it ended. */
  status: AgentStatus;
  /** The done line of an anonymous worker is drawn only when hidden workers are expanded. */
  hidden?: true;
  isError?: boolean;
  iterations?: number;
  usage?: Usage;
  /** The done line's result is the worker's last answer, already on screen above it: not repeated. */
  echoed?: true;
}

export type TranscriptItem = UserItem | AssistantItem | ToolItem | NoticeItem | RunSummaryItem | AgentItem;

export type AgentStatus = 'running' | 'done' | 'error' | 'stopped';

/** A worker of the session (one per agent_started), what it is doing and what it used. */
export interface AgentRun {
  agent: string;
  taskId: string;
  parent: string;
  task: string;
  visible: boolean;
  turnId?: string;
  status: AgentStatus;
  /** What it is doing while running: thinking, writing, or the tool it runs. */
  activity: 'thinking' | 'writing' | 'tool' | 'permission';
  tool?: string;
  /** Highest iteration seen in its events, then agent_done.iterations. */
  iterations: number;
  usage?: Usage;
}

export type TurnPhase = 'idle' | 'thinking' | 'writing' | 'running_tool' | 'waiting_permission';

export interface TurnState {
  phase: TurnPhase;
  turnId?: string;
  /** Tool name while phase is running_tool. */
  tool?: string;
  /** Its kind (`execute`: a command that can take the input line). */
  toolKind?: ToolKind;
}

export type PendingPermission = Omit<EventOf<'permission_request'>, 'type' | 'sessionId' | 'ts' | 'ephemeral'>;

export interface ResolvedPermission {
  requestId: string;
  tool: string;
  decision: Decision;
  by: string;
}

/** The run being collected until turn_done turns it into a RunSummaryItem. */
export interface RunInProgress {
  turnId: string;
  model: string;
  calls: RunCall[];
  usage?: Usage;
  /** The agent whose turn it is when not the commander (the floor holder, or one addressed with @NAME). */
  agent?: string;
}

/** The share this client came in with (`client:whoami`): one session, a role and its rights. */
export interface ShareGrantView {
  id: string;
  sessionId: string;
  role: ShareRole;
  rights: ShareRight[];
  expiresAt?: string;
}

export interface ViewState {
  url: string;
  me: string;
  role: Role;
  /** The kind of token this client came in with (`client:whoami`); null until the server said. */
  tokenKind: WhoAmI['kind'] | null;
  /** The share this client came in with, or null (the server's control or view token). */
  share: ShareGrantView | null;
  connection: ConnectionStatus;
  /** The attached session: mode (approval) and sandbox as the server last said (attach or session_configured). */
  session:
    | (Pick<SessionInfo, 'id' | 'title' | 'cwd' | 'model'> & { mode: ApprovalMode; sandbox?: string | undefined; searchOnly?: boolean | undefined })
    | null;
  /** The model that actually answered last (turn_started.model, then model_fallback.to). */
  model: string | null;
  /** Highest persisted seq folded in; events at or below it are duplicates. */
  lastSeq: number;
  items: TranscriptItem[];
  turn: TurnState;
  presence: ClientInfo[];
  context: { percent: number; usedTokens: number; windowTokens: number } | null;
  /** Token usage of the last finished (or running) turn. */
  lastUsage: Usage | null;
  run: RunInProgress | null;
  pendingPermissions: PendingPermission[];
  lastResolved: ResolvedPermission | null;
  focus: 'input' | 'transcript';
  /** The session's background jobs (job_started / job_exited, refreshed by jobs:list). */
  jobs: JobInfo[];
  /**
   * The callId of the running command the input line types into (Ctrl-T), or null for chat.
   * Cleared when that command reports its result or the turn ends.
   */
  commandFocus: string | null;
  /** The session's workers in start order (agent_started), with their state; the last MAX_AGENT_RUNS. */
  agents: AgentRun[];
  /** Agent names seen on the wire (`commander`, agent_started, floor_changed, events' `agent`), for `@` completion. */
  agentNames: string[];
  /** Who answers a message that names no one (SessionInfo.floor, then floor_changed); null until the server says. */
  floor: string | null;
  /** This terminal shows anonymous workers' items (Ctrl-O); a local choice, not part of the session. */
  showHidden: boolean;
  /**
   * Results whose tool_call is older than the events this view holds (it was attached with a
   * tail): given to the call's item when an older page brings it. Absent until there is one.
   */
  orphanResults?: readonly OrphanResult[];
}

/** A tool_result that found no item for its call (yet). */
export interface OrphanResult {
  callId: string;
  status: ToolStatus;
  durationMs: number;
  result: ResultExcerpt;
}
