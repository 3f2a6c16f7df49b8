import type { Socket as TcpSocket } from 'node:net';
import type { Server as IoServer } from 'socket.io';

/** What this file reads of an engine.io socket: its transport, and under a websocket one the TCP socket. */
interface EngineSocketLike {
  transport?: { name?: string; socket?: { _socket?: unknown } };
}

/**
 * One TCP write per engine.io flush, instead of one per frame.
 *
 * engine.io sends a client's packets in flushes: the first packet goes out alone, and the ones
 * queued while that write is in flight go out together in the next flush (a turn step's
 * `tool_result`, `thinking` and `tool_call` are usually one). The websocket library writes each
 * frame with a system call of its own, and on loopback each one also runs the receiver's side
 * of TCP: the largest single cost of broadcasting in the serve bench's profile. Here the TCP
 * socket is corked for the length of a flush of two or more packets and uncorked on the next
 * tick, so its frames leave in one `writev`. The frames themselves, their order and the
 * protocol are unchanged; nothing is held past the current tick.
 *
 * The TCP socket is reached through `ws`'s `_socket` (no public accessor exists). Should a
 * dependency upgrade move it, nothing breaks: frames go out one write each, as without this, and
 * frame-coalescing.test.ts fails.
 */
export function coalesceFlushedFrames(io: IoServer): void {
  io.engine.on('flush', (socket: EngineSocketLike, packets: readonly unknown[]) => {
    if (packets.length < 2) return; // one frame is already one write
    const tcp = websocketTcp(socket);
    if (!tcp || tcp.destroyed) return;
    tcp.cork();
    process.nextTick(() => tcp.uncork());
  });
}

/** The TCP socket under an engine.io socket's websocket transport; undefined for long-polling. */
export function websocketTcp(socket: EngineSocketLike): TcpSocket | undefined {
  if (socket.transport?.name !== 'websocket') return undefined;
  const tcp = socket.transport.socket?._socket as TcpSocket | undefined;
  return typeof tcp?.cork === 'function' && typeof tcp.uncork === 'function' ? tcp : undefined;
}
