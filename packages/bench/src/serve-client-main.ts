// The attached client of the serve-vs-SDK bench, in its own process as a terminal UI is: it
// connects to `tandem serve`, creates a session, attaches as driver, says `ready` to the bench
// over IPC, sends on `go`, and reports `done` at turn_done. Its frames are decoded here, not in
// the bench process, whose event loop is the scripted model server's and must answer the model
// requests of every path alike.
import { io, type Socket } from 'socket.io-client';
import { PROTOCOL_VERSION, SESSION_EVENT, type Ack, type SessionEvent } from '@tandem/shared';

export type ClientMessage =
  | { type: 'ready' }
  | { type: 'done'; ms: number; iterations: number; outcome: string; windowUs: [number, number] }
  | { type: 'failed'; message: string };

const [url, token, workspace, turnsArg] = process.argv.slice(2);
/** Turns sent one after another in the session (default 1); `done` reports the last. */
const turns = Math.max(1, Number(turnsArg ?? 1) || 1);

function request<T>(socket: Socket, event: string, payload: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    socket.timeout(60_000).emit(event, payload, (err: Error | null, ack: Ack<T>) => {
      if (err) return reject(err);
      if (!ack.ok) return reject(new Error(`${event}: ${ack.error.code}: ${ack.error.message}`));
      resolve(ack.data);
    });
  });
}

const tell = (message: ClientMessage) => new Promise<void>((resolve) => process.send!(message, () => resolve()));

async function main(): Promise<void> {
  if (!url || !token || !workspace || !process.send) throw new Error('usage: serve-client-main URL TOKEN WORKSPACE (forked with an IPC channel)');
  const socket = io(url, { auth: { token, name: 'bench', protocolVersion: PROTOCOL_VERSION }, transports: ['websocket'], forceNew: true });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const { session } = await request<{ session: { id: string } }>(socket, 'session:create', { title: 'bench', cwd: workspace });
    await request(socket, 'session:attach', { sessionId: session.id, role: 'driver' });
    let turnDone: (event: SessionEvent) => void = () => {};
    let failed: (error: Error) => void = () => {};
    socket.on(SESSION_EVENT, (event: SessionEvent) => {
      if (event.type === 'permission_request') failed(new Error(`the bench tool asked for permission: ${JSON.stringify(event)}`));
      if (event.type === 'turn_done') turnDone(event);
    });
    const oneTurn = async (): Promise<SessionEvent> => {
      const done = new Promise<SessionEvent>((resolve, reject) => {
        turnDone = resolve;
        failed = reject;
      });
      await request(socket, 'session:send', { sessionId: session.id, text: 'go' });
      return done;
    };
    const go = new Promise<void>((resolve) => process.once('message', () => resolve()));
    await tell({ type: 'ready' });
    await go;
    const startUs = Number(process.hrtime.bigint() / 1000n);
    const started = performance.now();
    let end = await oneTurn();
    for (let turn = 1; turn < turns; turn++) end = await oneTurn();
    const ms = performance.now() - started;
    const endUs = Number(process.hrtime.bigint() / 1000n);
    await tell({
      type: 'done',
      ms,
      iterations: end.type === 'turn_done' ? end.iterations : 0,
      outcome: (end.type === 'turn_done' ? end.outcome : undefined) ?? end.type,
      windowUs: [startUs, endUs],
    });
  } finally {
    socket.disconnect();
  }
}

main().then(
  () => process.exit(0),
  async (err: unknown) => {
    await tell({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  },
);
