import type { ServerResponse } from 'node:http';

export interface SseWriteOptions {
  /** Pause between events. */
  chunkDelayMs?: number;
  /** Destroy the socket after this many events. */
  cutAfterChunks?: number;
  /** True once the client went away or the server is closing. */
  isGone(): boolean;
  sleep(ms: number): Promise<void>;
}

/** One SSE event: an optional `event:` name and its `data:` payload. */
export interface SseEvent {
  event?: string;
  data: string;
}

/**
 * Streams SSE events with optional pacing and a deliberate cut. A cut destroys the socket
 * without the terminating chunk, so the client sees a connection that died mid-reply.
 */
export async function writeSse(res: ServerResponse, events: SseEvent[], options: SseWriteOptions): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
  let written = 0;
  for (const e of events) {
    if (options.isGone()) return;
    if (options.cutAfterChunks !== undefined && written >= options.cutAfterChunks) return cut(res);
    if (written > 0 && options.chunkDelayMs) await options.sleep(options.chunkDelayMs);
    if (options.isGone()) return;
    res.write(`${e.event ? `event: ${e.event}\n` : ''}data: ${e.data}\n\n`);
    written += 1;
  }
  res.end();
}

/**
 * Closes the connection without the terminating chunk. A graceful FIN (not a reset) makes
 * sure the client receives every event written so far, then sees the body end prematurely.
 */
function cut(res: ServerResponse): void {
  const socket = res.socket;
  if (!socket) return;
  socket.end();
  setTimeout(() => socket.destroy(), 1000).unref();
}
