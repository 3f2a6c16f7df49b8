import type { SessionEvent } from '@tandem/shared';
import type { ClientSignal, TandemClient } from '@tandem/tui/client';
import { type TurnOutcome, TurnTracker } from './turn-tracker.js';

export interface FollowOptions {
  sessionId: string;
  text: string;
  /** The name the client connected with (the server's `by` for our message). */
  by: string;
  /** Caps the turn the message starts (`session:send { maxIterations }`). */
  maxIterations?: number | undefined;
  /** Every session event from the send on (streamed deltas included), in order. */
  onEvent?(event: SessionEvent): void;
  /** Aborting it asks the server to cancel the turn; the outcome then ends `cancelled`. */
  signal?: AbortSignal | undefined;
  /** A lost connection that has not come back within this ends the outcome `disconnected` (default 10 s). */
  reconnectGraceMs?: number;
  /** Whether the server is gone for good (a local server whose process exited): no grace then. */
  serverGone?(): boolean;
}

const DEFAULT_RECONNECT_GRACE_MS = 10_000;

/**
 * Sends one message on an attached driver client and resolves with the outcome of the turn that
 * answers it. Never hangs on a dead server: a connection that is lost and does not come back
 * (or whose local server process is gone) ends the outcome `disconnected`. Rejects only when
 * the server refuses the message itself (e.g. the session is busy compacting).
 */
export function sendAndFollow(client: TandemClient, options: FollowOptions): Promise<TurnOutcome> {
  const tracker = new TurnTracker(options.by, options.text);
  // Interrupted before anything was sent: nothing to cancel, nothing sent.
  if (options.signal?.aborted) return Promise.resolve(tracker.abandon('cancelled'));
  return new Promise<TurnOutcome>((resolve, reject) => {
    let early: SessionEvent[] | null = [];
    let grace: NodeJS.Timeout | undefined;
    let acked = false;
    let cancelWanted = false;

    const cleanup = () => {
      unsubscribe();
      if (grace) clearTimeout(grace);
      options.signal?.removeEventListener('abort', onAbort);
    };
    const settle = (outcome: TurnOutcome | undefined) => {
      if (!outcome) return;
      cleanup();
      resolve(outcome);
    };
    const lost = (why: string) => settle(tracker.abandon('disconnected', { code: 'disconnected', message: why }));
    const onConnection = (signal: Extract<ClientSignal, { kind: 'connection' }>) => {
      const { connection } = signal;
      if (connection.status === 'connected') {
        if (grace) clearTimeout(grace);
        grace = undefined;
        return;
      }
      if (connection.status === 'refused' || connection.status === 'closed')
        return lost(`the connection to ${client.url} ended (${describeState(connection)})`);
      if (connection.status !== 'reconnecting') return;
      if (options.serverGone?.()) return lost(`the tandem server at ${client.url} stopped (its process exited) before the turn ended`);
      grace ??= setTimeout(
        () => lost(`lost the connection to ${client.url} and it did not come back within ${Math.round(graceMs / 1000)} s (${connection.reason})`),
        graceMs,
      );
    };
    const graceMs = options.reconnectGraceMs ?? DEFAULT_RECONNECT_GRACE_MS;
    const unsubscribe = client.subscribe((signal) => {
      if (signal.kind === 'connection') return onConnection(signal);
      if (signal.kind !== 'event') return;
      options.onEvent?.(signal.event);
      if (early) early.push(signal.event);
      else settle(tracker.feed(signal.event));
    });
    const cancel = () => {
      void client.request('session:cancel', { sessionId: options.sessionId }).catch(() => undefined);
    };
    const onAbort = () => {
      if (acked) cancel();
      else cancelWanted = true;
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });

    client
      .request('session:send', {
        sessionId: options.sessionId,
        text: options.text,
        ...(options.maxIterations !== undefined ? { maxIterations: options.maxIterations } : {}),
      })
      .then(
        (ack) => {
          acked = true;
          tracker.started(ack.mode, ack.turnId);
          const buffered = early ?? [];
          early = null;
          for (const event of buffered) tracker.feed(event);
          if (cancelWanted && !tracker.done) cancel();
          settle(tracker.done);
        },
        (err: unknown) => {
          cleanup();
          reject(err);
        },
      );
  });
}

function describeState(connection: { status: string; message?: string }): string {
  return connection.message ?? connection.status;
}
