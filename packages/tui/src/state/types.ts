import type { ApprovalMode, ClientInfo, Danger, Decision, EventOf, JobInfo, Role, SessionInfo, Usage } from '@tandem/shared';
import type { OutputBuffer } from './output-buffer.js';

/** How the TUI is connected to the server, as the status line shows it. */
export type ConnectionStatus =
  | { status: 'connecting' }
  | { status: 'connected' }
  /** `retryAt`: when the next attempt starts (ms since the epoch), for the status line's countdown. */
  | { status: 'reconnecting'; attempt: number; reason: string; retryAt?: number | undefined }
  | { status: 'refused'; reason: 'unauthorized' | 'protocol_mismatch' | 'error'; message: string }
  | { status: 'closed' };

export interface UserItem {
  kind: 'user';
  seq: number;
  text: string;
  by: string;
  steer: boolean;
}

export interface AssistantItem {
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

export interface ToolItem {
  kind: 'tool';
  turnId: string;
  callId: string;
  tool: string;
  /** One line: the command verbatim, the path, the pattern ... */
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
}

export interface RunCall {
  callId: string;
  tool: string;
  summary: string;
  status: ToolStatus;
  durationMs?: number;
}

export interface RunSummaryItem {
  kind: 'run_summary';
  turnId: string;
  model: string;
  iterations: number;
  outcome: string;
  calls: RunCall[];
  usage?: Usage;
}

export type TranscriptItem = UserItem | AssistantItem | ToolItem | NoticeItem | RunSummaryItem;

export type TurnPhase = 'idle' | 'thinking' | 'writing' | 'running_tool' | 'waiting_permission';

export interface TurnState {
  phase: TurnPhase;
  turnId?: string;
  /** Tool name while phase is running_tool. */
  tool?: string;
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
}

export interface ViewState {
  url: string;
  me: string;
  role: Role;
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
}
