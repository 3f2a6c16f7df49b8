// Many viewers in one process, for the "1,000 viewers" bench: connects COUNT socket.io clients to
// URL (Tandem: each attaches to SESSION as viewer; raw: the server puts each in its room), says
// `ready` over IPC, then checks what each receives until turn_done: every text delta in order
// (each carries its index and the wall-clock time it was sent), every persisted event in seq
// order without a gap, and the delivery latency of each delta. Reports once every viewer is done.
import { io, type Socket } from 'socket.io-client';
import { PROTOCOL_VERSION, SESSION_EVENT, type Ack, type SessionEvent } from '@tandem/shared';

export type SwarmMessage =
  | { type: 'ready' }
  /** Every few seconds: how many viewers are connected and attached, and how many saw turn_done. */
  | { type: 'progress'; attached: number; finished: number }
  | { type: 'done'; latencies: number[]; viewers: number; complete: number; problems: string[] }
  | { type: 'failed'; message: string };

const [url, token, sessionId, countArg, mode, deltasArg] = process.argv.slice(2);
const count = Number(countArg);
const deltas = Number(deltasArg);

/** Wall-clock milliseconds with sub-millisecond precision, comparable between processes. */
const now = () => performance.timeOrigin + performance.now();

function request<T>(socket: Socket, event: string, payload: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    socket.timeout(120_000).emit(event, payload, (err: Error | null, ack: Ack<T>) => {
      if (err) return reject(err);
      if (!ack.ok) return reject(new Error(`${event}: ${ack.error.code}: ${ack.error.message}`));
      resolve(ack.data);
    });
  });
}

const tell = (message: SwarmMessage) => new Promise<void>((resolve) => process.send!(message, () => resolve()));

async function main(): Promise<void> {
  if (!url || !token || !sessionId || !(count > 0) || !(deltas > 0) || (mode !== 'tandem' && mode !== 'raw') || !process.send) {
    throw new Error('usage: viewer-swarm-main URL TOKEN SESSION COUNT tandem|raw DELTAS (forked with an IPC channel)');
  }
  const latencies: number[] = [];
  const problems: string[] = [];
  let complete = 0;
  let attached = 0;
  let done = 0;
  const finished: Promise<void>[] = [];
  const sockets: Socket[] = [];
  const progress = setInterval(() => process.send!({ type: 'progress', attached, finished: done } satisfies SwarmMessage), 2000);
  for (let v = 0; v < count; v++) {
    const socket = io(url, {
      auth: { token, name: `viewer-${process.pid}-${v}`, protocolVersion: PROTOCOL_VERSION },
      transports: ['websocket'],
      forceNew: true,
    });
    sockets.push(socket);
    let next = 0;
    let lastSeq = -1;
    let ok = true;
    /** turn_done came, or the connection ended first. */
    let over = false;
    const problem = (text: string) => {
      ok = false;
      if (problems.length < 5) problems.push(text);
    };
    finished.push(
      new Promise<void>((resolve) => {
        socket.on(SESSION_EVENT, (event: SessionEvent) => {
          if (!event.ephemeral) {
            if (lastSeq >= 0 && event.seq !== lastSeq + 1) problem(`viewer ${v}: seq ${event.seq} after ${lastSeq}`);
            lastSeq = event.seq;
          }
          if (event.type === 'text_delta') {
            const [index, sentAt] = event.delta.slice(0, -1).split('@').map(Number);
            if (index !== next) problem(`viewer ${v}: delta ${index} where ${next} was due`);
            next = (index ?? next) + 1;
            latencies.push(now() - sentAt!);
          } else if (event.type === 'turn_done') {
            if (next !== deltas) problem(`viewer ${v}: ${next} of ${deltas} deltas`);
            if (over) return;
            over = true;
            if (ok) complete++;
            done++;
            resolve();
          }
        });
        // A viewer the server dropped (e.g. its heartbeat timed out behind a full send buffer)
        // gets nothing more: counted as a problem, not waited for.
        socket.on('disconnect', (reason) => {
          if (over) return;
          over = true;
          problem(`viewer ${v}: disconnected (${reason}) after ${next} of ${deltas} deltas`);
          done++;
          resolve();
        });
      }),
    );
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    if (mode === 'tandem') await request(socket, 'session:attach', { sessionId, role: 'viewer', tail: 1 });
    attached++;
  }
  await tell({ type: 'ready' });
  await Promise.all(finished);
  clearInterval(progress);
  await tell({ type: 'done', latencies, viewers: count, complete, problems });
  for (const socket of sockets) socket.disconnect();
}

main().then(
  () => process.exit(0),
  async (err: unknown) => {
    await tell({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  },
);
