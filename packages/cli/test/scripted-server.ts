import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SESSION_EVENT, SessionEventSchema, type SessionEvent, type SessionInfo } from '@tandem/shared';
import { Server } from 'socket.io';

/** A session event as a test writes it: the server stamps sessionId, seq and ts. */
export type EventBody = SessionEvent extends infer E ? (E extends SessionEvent ? Omit<E, 'sessionId' | 'seq' | 'ts' | 'ephemeral'> : never) : never;

/** A request a client made, as the scripted server received it. */
export interface Received {
  command: string;
  payload: Record<string, unknown>;
  client: string;
}

/**
 * A socket.io server that speaks the Tandem wire protocol for one session whose events the test
 * writes itself: it answers the requests a TUI makes (list, attach with replay, detach, send,
 * cancel, permission answers, jobs) and sends each event the test emits to every attached
 * client, stamped like the real server (persisted events get the next seq; text_delta is
 * ephemeral). Every event is checked against the wire schema before it goes out. Used where
 * the events matter more than how they were produced (e.g. the TUI's view of agents).
 */
export class ScriptedServer {
  readonly received: Received[] = [];
  /** What `session:delete` answers (the test sets it): by default the session is deleted. */
  deleteAnswer: { ok: true; data: Record<string, never> } | { ok: false; error: { code: string; message: string } } = { ok: true, data: {} };
  private readonly log: SessionEvent[] = [];
  private seq = 0;

  private constructor(
    private readonly http: HttpServer,
    private readonly io: Server,
    readonly url: string,
    readonly session: SessionInfo,
  ) {}

  static async start(session: SessionInfo): Promise<ScriptedServer> {
    const http = createServer();
    const io = new Server(http, { transports: ['websocket'] });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    const server = new ScriptedServer(http, io, `http://127.0.0.1:${port}`, session);
    io.on('connection', (socket) => {
      const client = String((socket.handshake.auth as { name?: unknown }).name ?? 'anonymous');
      socket.onAny((command: string, ...args: unknown[]) => {
        const ack = args.at(-1);
        if (typeof ack !== 'function') return;
        const payload = (typeof args[0] === 'object' && args[0] !== null ? args[0] : {}) as Record<string, unknown>;
        server.received.push({ command, payload, client });
        if (command === 'session:attach') void socket.join('attached');
        if (command === 'session:detach') void socket.leave('attached');
        ack(server.answer(command, payload));
      });
    });
    return server;
  }

  private answer(command: string, payload: Record<string, unknown>): unknown {
    const ok = (data: unknown) => ({ ok: true, data });
    switch (command) {
      case 'session:list':
        return ok({ sessions: [{ ...this.session, lastSeq: this.seq }] });
      case 'session:attach': {
        const after = typeof payload.afterSeq === 'number' ? payload.afterSeq : 0;
        return ok({ session: { ...this.session, lastSeq: this.seq }, events: this.log.filter((event) => event.seq > after) });
      }
      case 'session:send':
        return ok({ mode: 'turn' });
      case 'jobs:list':
        return ok({ jobs: [] });
      case 'client:whoami':
        return ok({ kind: 'control', name: 'scripted' });
      case 'session:delete':
        return this.deleteAnswer;
      case 'session:detach':
      case 'session:cancel':
      case 'permission:respond':
        return ok({});
      default:
        return { ok: false, error: { code: 'invalid_input', message: `the scripted server does not answer ${command}` } };
    }
  }

  /** Stamps and sends one event to every attached client (persisted ones are replayed to later attachers). */
  emit(body: EventBody): SessionEvent {
    const ephemeral = body.type === 'text_delta';
    if (!ephemeral) this.seq += 1;
    const event = SessionEventSchema.parse({
      ...body,
      sessionId: this.session.id,
      seq: this.seq,
      ts: new Date().toISOString(),
      ...(ephemeral ? { ephemeral: true } : {}),
    });
    if (!ephemeral) this.log.push(event);
    this.io.to('attached').emit(SESSION_EVENT, event);
    return event;
  }

  /** How many clients are attached now. */
  async attachedCount(): Promise<number> {
    return (await this.io.in('attached').fetchSockets()).length;
  }

  /** The requests of one kind received so far. */
  requests(command: string): Received[] {
    return this.received.filter((request) => request.command === command);
  }

  async close(): Promise<void> {
    this.io.disconnectSockets(true);
    await new Promise<void>((resolve) => this.io.close(() => resolve()));
    if (this.http.listening) await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }
}
