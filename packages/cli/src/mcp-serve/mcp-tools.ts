import { APPROVAL_MODES, MAX_MESSAGE_CHARS, MAX_PAGE_EVENTS, type SessionEvent, type SessionInfo } from '@tandem/shared';
import type { TandemClient } from '@tandem/tui/client';
import { z } from 'zod';
import { runHeadlessTurn } from '../headless/headless-turn.js';
import { failureSentence, type RunResult } from '../headless/run-result.js';
import type { ServerConnection } from '../headless/server-connection.js';
import { workspaceDir } from '../workspace.js';
import { RunProgress } from '../run/run-progress.js';

/** The arguments of `tandem_run` (ARCHITECTURE, Entrances). */
export const RUN_INPUT = {
  prompt: z.string().min(1).max(MAX_MESSAGE_CHARS).describe('What to do: the message the Tandem agent gets'),
  cwd: z.string().min(1).optional().describe('The folder to work in (absolute); default: the folder `tandem mcp serve` was started for'),
  sessionId: z.string().min(1).optional().describe('Continue this Tandem session (an id from tandem_sessions); default: a new session'),
  approvalMode: z
    .enum(APPROVAL_MODES)
    .optional()
    .describe("ask (a person approves from a Tandem terminal or the web viewer), auto-edit, read-only or full-auto; default: the session's own"),
};

export const EVENTS_INPUT = {
  sessionId: z.string().min(1).describe('The Tandem session (from tandem_sessions or a tandem_run result)'),
  afterSeq: z.number().int().min(0).optional().describe('Only events after this seq (the nextAfterSeq of the previous call); default 0'),
};

/** Events one `tandem_events` call returns at most; `hasMore` says when to ask again. */
export const EVENTS_PAGE = 200;

export interface ToolDeps {
  /** A fresh connected client (one per `tandem_run`: a turn attaches its client to its session). */
  connect(): Promise<ServerConnection>;
  /** The client for listings (connected on first use). */
  shared(): Promise<TandemClient>;
  /** The client name of this MCP server's turns. */
  by: string;
  /** The folder a `tandem_run` without `cwd` works in. */
  defaultCwd: string;
}

export interface RunCall {
  prompt: string;
  cwd?: string | undefined;
  sessionId?: string | undefined;
  approvalMode?: (typeof APPROVAL_MODES)[number] | undefined;
}

/** `tandem_run`: one turn, as `tandem run --output-format json` runs it; the result object is the structured content. */
export async function tandemRun(
  deps: ToolDeps,
  call: RunCall,
  signal: AbortSignal,
  progress: (line: string) => void,
): Promise<{ text: string; result: RunResult }> {
  const cwd = workspaceDir(call.cwd ?? deps.defaultCwd);
  const connection = await deps.connect();
  try {
    let watcher: RunProgress | undefined;
    const result = await runHeadlessTurn({
      connection,
      by: deps.by,
      target: { sessionId: call.sessionId, cwd },
      prompt: call.prompt,
      mode: call.approvalMode,
      signal,
      onSession: (session, created) => {
        watcher = new RunProgress({ write: progress, quiet: false, sessionId: session.id });
        progress(`session ${session.id}${created ? ' (new)' : ''} in ${session.cwd}: watch or approve with \`tandem attach ${session.id.slice(0, 8)}\``);
      },
      onEvent: (event: SessionEvent) => watcher?.observe(event),
    });
    const why = failureSentence(result);
    const text = why ? [result.result, `tandem: ${why}`].filter(Boolean).join('\n\n') : result.result;
    return { text, result };
  } finally {
    connection.client.close();
  }
}

/** `tandem_sessions`: the server's sessions. */
export async function tandemSessions(deps: ToolDeps): Promise<{ sessions: SessionInfo[] }> {
  const client = await deps.shared();
  const { sessions } = await client.request('session:list', {});
  return { sessions };
}

/**
 * `tandem_events`: a session's persisted events after `afterSeq`, oldest first, at most
 * `EVENTS_PAGE` per call (read with `session:history`, so reading never attaches and adds
 * nothing to the session's log).
 */
export async function tandemEvents(
  deps: ToolDeps,
  sessionId: string,
  afterSeq = 0,
): Promise<{ events: SessionEvent[]; lastSeq: number; nextAfterSeq: number; hasMore: boolean }> {
  const client = await deps.shared();
  const { sessions } = await client.request('session:list', {});
  const session = sessions.find((s) => s.id === sessionId) ?? uniquePrefix(sessions, sessionId);
  const lastSeq = session.lastSeq;
  const upTo = Math.min(lastSeq, afterSeq + Math.min(EVENTS_PAGE, MAX_PAGE_EVENTS));
  if (upTo <= afterSeq) return { events: [], lastSeq, nextAfterSeq: afterSeq, hasMore: false };
  const { events } = await client.request('session:history', { sessionId: session.id, beforeSeq: upTo + 1, limit: upTo - afterSeq });
  const page = events.filter((event) => event.seq > afterSeq);
  const nextAfterSeq = page.length > 0 ? page[page.length - 1]!.seq : upTo;
  return { events: page, lastSeq, nextAfterSeq, hasMore: nextAfterSeq < lastSeq };
}

function uniquePrefix(sessions: SessionInfo[], id: string): SessionInfo {
  const matches = sessions.filter((s) => s.id.startsWith(id));
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) throw new Error(`session id "${id}" matches ${matches.length} sessions; give more characters`);
  throw new Error(`no session "${id}" on this server; tandem_sessions lists them`);
}
