import type { Socket as TcpSocket } from 'node:net';
import type { Server as IoServer } from 'socket.io';

/** What this file reads of an engine.io socket: its transport, and under a websocket one the TCP socket. */
interface EngineSocketLike {
  transport?: { name?: string; socket?: { _socket?: unknown } };
}

/** The engine.io socket's methods that hand its queued packets to the transport, and close it. */
interface FlushingSocket {
  flush(): void;
  close(discard?: boolean): unknown;
}

/**
 * One TCP write per tick's frames to a client, instead of one per frame.
 *
 * engine.io flushes a client's packets as they are given: the first of a burst goes out alone,
 * and the ones queued while that write is in flight go out together in the next flush. The
 * websocket library writes each frame with a system call of its own, and on loopback each one
 * also runs the receiver's side of TCP: the largest single cost of broadcasting in the serve
 * bench's profile. Here (1) a client's flush runs once per tick, so the frames of a burst (a turn
 * step's `tool_result`, `thinking` and `tool_call`, made visible by one write of the log) form
 * one flush, and (2) the TCP socket is corked for the length of a flush of two or more packets and
 * uncorked on the next tick, so its frames leave in one `writev`. The frames themselves, their
 * order and the protocol are unchanged; nothing is held past the current tick.
 *
 * The TCP socket is reached through `ws`'s `_socket` (no public accessor exists), the flush as
 * the engine.io socket's `flush` method. Should a dependency upgrade move either, nothing
 * breaks: frames go out as without this, and frame-coalescing.test.ts fails.
 */
export function coalesceFlushedFrames(io: IoServer): void {
  io.engine.on('connection', (socket: FlushingSocket) => flushOncePerTick(socket));
  io.engine.on('flush', (socket: EngineSocketLike, packets: readonly unknown[]) => {
    if (packets.length < 2) return; // one frame is already one write
    const tcp = websocketTcp(socket);
    if (!tcp || tcp.destroyed) return;
    tcp.cork();
    process.nextTick(() => tcp.uncork());
  });
}

/**
 * One flush per tick for a client's packets: the packets sent in one tick (a turn step's events,
 * broadcast as one write of the log makes them visible) leave in one flush, so in one write
 * with the cork above, instead of the first alone and the rest after its write. engine.io
 * flushes on every packet it is given; here its flush is run once, when the current tick's
 * code is done (process.nextTick), with whatever was queued by then. Everything else is its
 * own: it still sends only while the transport is writable (backpressure), and flushes again
 * when a write completes.
 */
function flushOncePerTick(socket: FlushingSocket): void {
  if (typeof socket.flush !== 'function' || typeof socket.close !== 'function') return;
  const flushNow = socket.flush.bind(socket);
  const closeNow = socket.close.bind(socket);
  let pending = false;
  const flushQueued = () => {
    if (!pending) return;
    pending = false;
    flushNow();
  };
  socket.flush = () => {
    if (pending) return;
    pending = true;
    process.nextTick(flushQueued);
  };
  // Closing hands the queued packets to the transport first, as an immediate flush would have:
  // a server that stops (`disconnectSockets` then `io.close()`, which discards what is queued)
  // still sends every client its disconnect packet, so clients know the server closed them.
  socket.close = (discard?: boolean) => {
    flushQueued();
    return closeNow(discard);
  };
}

/** The TCP socket under an engine.io socket's websocket transport; undefined for long-polling. */
export function websocketTcp(socket: EngineSocketLike): TcpSocket | undefined {
  if (socket.transport?.name !== 'websocket') return undefined;
  const tcp = socket.transport.socket?._socket as TcpSocket | undefined;
  return typeof tcp?.cork === 'function' && typeof tcp.uncork === 'function' ? tcp : undefined;
}
