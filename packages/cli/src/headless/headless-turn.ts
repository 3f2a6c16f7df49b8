import type { ApprovalMode, SessionEvent, SessionInfo } from '@tandem/shared';
import { sendAndFollow } from './follow-turn.js';
import { type RunResult, runResult } from './run-result.js';
import { applyRunSettings } from './run-settings.js';
import type { ServerConnection } from './server-connection.js';
import { type SessionTarget, targetSession } from './session-target.js';

export interface HeadlessTurnRequest {
  /** A connected client of its own: the turn attaches it to the session as driver. */
  connection: ServerConnection;
  /** The name the client connected with. */
  by: string;
  target: SessionTarget;
  prompt: string;
  /** The approval mode for this turn (put back afterwards). */
  mode?: ApprovalMode | undefined;
  maxIterations?: number | undefined;
  /** The session the turn runs in, once chosen and configured. */
  onSession?(session: SessionInfo, created: boolean): void;
  /** Every session event from the send on, in order. */
  onEvent?(event: SessionEvent): void;
  /** Aborting it cancels the turn. */
  signal?: AbortSignal | undefined;
}

/**
 * One headless turn, as `tandem run` and `tandem_run` run it: choose the session (throws
 * `UnknownSessionError` for a `--session` the server does not have), attach as driver, apply
 * `--model` / `--approval-mode`, send the prompt, follow the turn to its end, put the approval
 * mode back. Resolves with the result object; rejects when the server refuses the prompt.
 */
export async function runHeadlessTurn(request: HeadlessTurnRequest): Promise<RunResult> {
  const started = performance.now();
  const { client } = request.connection;
  const target = await targetSession(client, request.target);
  await client.attach(target.session.id, 'driver', target.session.lastSeq);
  try {
    const settings = await applyRunSettings(client, target.session, { model: request.target.model, mode: request.mode });
    const { session } = settings;
    request.onSession?.(session, target.created);
    const outcome = await sendAndFollow(client, {
      sessionId: session.id,
      text: request.prompt,
      by: request.by,
      maxIterations: request.maxIterations,
      onEvent: request.onEvent,
      signal: request.signal,
      serverGone: request.connection.serverGone,
    });
    if (outcome.end !== 'disconnected') await settings.restore().catch(() => undefined);
    return runResult(session.id, outcome, performance.now() - started);
  } finally {
    await client.detach().catch(() => undefined);
  }
}
