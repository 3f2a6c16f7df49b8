import {
  CONNECT_ERROR_PROTOCOL,
  CONNECT_ERROR_RATE_LIMITED,
  CONNECT_ERROR_UNAUTHORIZED,
  Commands,
  EventSchemas,
  PROTOCOL_VERSION,
  SESSION_EVENT,
  SHARE_ENDED_EVENT,
  SessionEventSchema,
  ShareEndedSchema,
  type CommandName,
  type CommandPayload,
  type CommandResult,
  type ErrorCode,
  type Role,
  type SessionEvent,
  type SessionInfo,
} from '@tandem/shared';
import { io, type Socket } from 'socket.io-client';
import { reconnectDelay } from './reconnect-backoff.js';
import type { ConnectionStatus } from './state/types.js';

/** What a client tells its listener: connection changes, (re)attachment, and session events in order. */
export type ClientSignal =
  | { kind: 'connection'; connection: ConnectionStatus }
  /** `history`: after an attach with a tail, the oldest seq sent and whether older events exist (`session:history`). */
  | { kind: 'attached'; session: SessionInfo; role: Role; replayed: number; history?: AttachedHistory }
  | { kind: 'event'; event: SessionEvent }
  | { kind: 'warning'; message: string };

export type ClientListener = (signal: ClientSignal) => void;

export interface AttachedHistory {
  firstSeq: number;
  hasMore: boolean;
}

export interface ClientOptions {
  token: string;
  name: string;
  /** Ack timeout per request. */
  requestTimeoutMs?: number;
  /** First reconnection delay; doubles from there (with jitter) up to `reconnectionDelayMaxMs`. */
  reconnectionDelayMs?: number;
  /** Longest wait between reconnection attempts (default 10 s). */
  reconnectionDelayMaxMs?: number;
  /** A listener threw; default: a process warning. A full-screen UI passes its own (no stderr). */
  onListenerError?: (err: unknown) => void;
  /**
   * Certificates (PEM) to trust for an `https://` server, in Node: e.g. the system's roots plus a
   * dev box's self-signed certificate (`tandem attach --ca FILE`). Ignored in a browser.
   */
  ca?: string | string[];
}

/** A request that failed: a server error code, or `timeout` / `disconnected` on our side. */
export class RequestError extends Error {
  constructor(
    readonly code: ErrorCode | 'timeout' | 'disconnected',
    message: string,
  ) {
    super(message);
    this.name = 'RequestError';
  }
}

interface Attachment {
  sessionId: string;
  role: Role;
  lastSeq: number;
  /** Ask for only the last `tail` events on a first attach (one screen); older ones come from `session:history`. */
  tail: number | undefined;
  /** Live events that arrive while an attach request is in flight; delivered after its replay. */
  buffer: SessionEvent[] | null;
}

const KNOWN_TYPES = new Set(Object.keys(EventSchemas));

/**
 * A typed socket.io client for one server. Requests go out with an ack and a timeout; session
 * events are delivered once each, in seq order. After a reconnect the client re-attaches with
 * `afterSeq` = the last seq it delivered, so nothing is missed and nothing is repeated.
 */
export class TandemClient {
  private readonly socket: Socket;
  private readonly listeners = new Set<ClientListener>();
  private readonly requestTimeoutMs: number;
  private onListenerError: (err: unknown) => void;
  private state: ConnectionStatus = { status: 'connecting' };
  private attachment: Attachment | null = null;
  private everConnected = false;
  private closed = false;
  /** Why the share this client came in with ended (told by the server just before it closes the socket). */
  private shareEnded: string | undefined;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private readonly firstDelayMs: number;
  private readonly maxDelayMs: number;

  constructor(
    readonly url: string,
    options: ClientOptions,
  ) {
    this.requestTimeoutMs = options.requestTimeoutMs ?? 15_000;
    this.onListenerError = options.onListenerError ?? ((err) => process.emitWarning(`tandem client listener failed: ${errorText(err)}`));
    this.firstDelayMs = options.reconnectionDelayMs ?? 500;
    this.maxDelayMs = options.reconnectionDelayMaxMs ?? 10_000;
    // Reconnection is ours, not socket.io's: socket.io gives up after a clean server stop
    // ('io server disconnect'), and we want one backoff with a visible countdown for every case.
    this.socket = io(url, {
      auth: { token: options.token, name: options.name, protocolVersion: PROTOCOL_VERSION },
      transports: ['websocket'],
      reconnection: false,
      ...(options.ca ? { ca: options.ca } : {}),
    });
    this.socket.on('connect', () => this.onConnect());
    this.socket.on('disconnect', (reason) => this.onDisconnect(reason));
    this.socket.on('connect_error', (err) => this.onConnectError(err));
    this.socket.on(SESSION_EVENT, (raw: unknown) => this.onEvent(raw));
    this.socket.on(SHARE_ENDED_EVENT, (raw: unknown) => this.onShareEnded(raw));
  }

  get connection(): ConnectionStatus {
    return this.state;
  }

  /** The last persisted seq delivered for the attached session (0 before any). */
  get lastSeq(): number {
    return this.attachment?.lastSeq ?? 0;
  }

  /** Where a listener's error goes from now on (ClientOptions.onListenerError), e.g. once a full-screen UI takes this client over. */
  handleListenerErrors(handler: (err: unknown) => void): void {
    this.onListenerError = handler;
  }

  subscribe(listener: ClientListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves once connected; rejects if the server refuses us or `timeoutMs` passes first. */
  ready(timeoutMs = 10_000): Promise<void> {
    if (this.state.status === 'connected') return Promise.resolve();
    if (this.state.status === 'refused' || this.state.status === 'closed') return Promise.reject(new Error(describe(this.state)));
    return new Promise((resolve, reject) => {
      const finish = (err?: Error) => {
        clearTimeout(timer);
        stop();
        if (err) reject(err);
        else resolve();
      };
      const timer = setTimeout(
        () => finish(new Error(`could not connect to ${this.url} within ${Math.round(timeoutMs / 1000)} s (${describe(this.state)}); is the server running?`)),
        timeoutMs,
      );
      const stop = this.subscribeRaw((signal) => {
        if (signal.kind !== 'connection') return;
        const { connection } = signal;
        if (connection.status === 'connected') finish();
        else if (connection.status === 'refused' || connection.status === 'closed') finish(new Error(describe(connection)));
      });
    });
  }

  async request<C extends CommandName>(command: C, payload: CommandPayload<C>, timeoutMs = this.requestTimeoutMs): Promise<CommandResult<C>> {
    if (!this.socket.connected) {
      throw new RequestError('disconnected', `${command}: not connected to ${this.url} (${describe(this.state)})`);
    }
    let reply: unknown;
    try {
      reply = await this.socket.timeout(timeoutMs).emitWithAck(command, payload);
    } catch {
      throw new RequestError('timeout', `${command}: the server did not answer within ${Math.round(timeoutMs / 1000)} s`);
    }
    return unwrap(command, reply);
  }

  /**
   * Attaches (replaying events after `afterSeq`) and keeps the attachment across reconnects.
   * `tail`: on a first attach (no `afterSeq`), only the last `tail` events; a re-attach after a
   * reconnect still replays everything it missed.
   */
  async attach(sessionId: string, role: Role, afterSeq = 0, options: { tail?: number } = {}): Promise<{ session: SessionInfo; replayed: number }> {
    this.attachment = { sessionId, role, lastSeq: afterSeq, tail: options.tail, buffer: [] };
    return this.runAttach(this.attachment);
  }

  async detach(): Promise<void> {
    const attachment = this.attachment;
    this.attachment = null;
    if (attachment && this.socket.connected) {
      await this.request('session:detach', { sessionId: attachment.sessionId }, 2_000).catch(() => undefined);
    }
  }

  close(): void {
    this.closed = true;
    this.attachment = null;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.socket.disconnect();
    this.setState({ status: 'closed' });
  }

  private async runAttach(attachment: Attachment): Promise<{ session: SessionInfo; replayed: number }> {
    attachment.buffer = [];
    try {
      const data = await this.request('session:attach', {
        sessionId: attachment.sessionId,
        role: attachment.role,
        ...(attachment.lastSeq > 0 ? { afterSeq: attachment.lastSeq } : attachment.tail ? { tail: attachment.tail } : {}),
      });
      if (this.attachment !== attachment) return { session: data.session, replayed: 0 };
      const buffered = attachment.buffer ?? [];
      attachment.buffer = null;
      const history = data.hasMore !== undefined && data.firstSeq !== undefined ? { history: { firstSeq: data.firstSeq, hasMore: data.hasMore } } : {};
      this.emit({ kind: 'attached', session: data.session, role: attachment.role, replayed: data.events.length, ...history });
      for (const event of data.events) this.deliver(attachment, event);
      for (const event of buffered) this.deliver(attachment, event);
      return { session: data.session, replayed: data.events.length };
    } catch (err) {
      attachment.buffer = null;
      throw err;
    }
  }

  private onConnect(): void {
    this.attempt = 0;
    const reconnected = this.everConnected;
    this.everConnected = true;
    this.setState({ status: 'connected' });
    const attachment = this.attachment;
    if (reconnected && attachment) {
      this.runAttach(attachment).catch((err: unknown) =>
        this.emit({ kind: 'warning', message: `re-attaching to session ${attachment.sessionId} failed: ${errorText(err)}` }),
      );
    }
  }

  /** The share this client uses ended: say why and stop; reconnecting would only be refused. */
  private onShareEnded(raw: unknown): void {
    const parsed = ShareEndedSchema.safeParse(raw);
    const ended = parsed.success ? parsed.data : undefined;
    this.shareEnded =
      ended?.reason === 'expired'
        ? 'your share of this session expired; ask its host for a new one (tandem share)'
        : `your share of this session was revoked${ended?.by ? ` by ${ended.by}` : ''}; ask its host if you need to come back`;
  }

  private onDisconnect(reason: string): void {
    if (this.shareEnded) {
      this.closed = true;
      return this.setState({ status: 'refused', reason: 'share_ended', message: this.shareEnded });
    }
    if (reason === 'io client disconnect' || this.closed) return this.setState({ status: 'closed' });
    // 'io server disconnect' is a clean stop (or restart) of the server: come back like after a crash.
    this.retryLater(reason === 'io server disconnect' ? 'the server closed the connection (stopped or restarting)' : reason);
  }

  /** Schedules the next attempt with backoff; the state carries when, for the countdown. */
  private retryLater(reason: string): void {
    if (this.closed || this.retryTimer) return;
    this.attempt += 1;
    const delay = reconnectDelay(this.attempt, this.firstDelayMs, this.maxDelayMs);
    const retryAt = Date.now() + delay;
    if (this.everConnected) this.setState({ status: 'reconnecting', attempt: this.attempt, reason, retryAt });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.closed) return;
      if (this.everConnected) this.setState({ status: 'reconnecting', attempt: this.attempt, reason });
      this.socket.connect();
    }, delay);
  }

  private onConnectError(err: Error): void {
    if (err.message === CONNECT_ERROR_RATE_LIMITED) {
      const locked = 'this address is locked out for a minute after too many refused tokens';
      // Connected before: keep trying, the lockout ends by itself. Never connected: say it now
      // instead of waiting out a connect timeout that would blame the network.
      if (this.everConnected) return this.retryLater(`${locked}; retrying`);
      this.closed = true;
      return this.setState({ status: 'refused', reason: 'error', message: `refused by ${this.url}: ${locked}; try again in a minute` });
    }
    const untrusted = untrustedCertificate(err);
    if (untrusted) {
      // Retrying cannot help: the client has to be told which certificate to trust.
      this.closed = true;
      return this.setState({
        status: 'refused',
        reason: 'error',
        message: `refused by this client: ${this.url} presents a certificate it does not trust (${untrusted}); pass --ca FILE with the server's certificate (a self-signed one included), or set NODE_EXTRA_CA_CERTS`,
      });
    }
    if (err.message !== CONNECT_ERROR_UNAUTHORIZED && !err.message.startsWith(CONNECT_ERROR_PROTOCOL)) {
      // Not there (yet): the server is down, restarting, or the network is out. Try again.
      return this.retryLater(connectErrorText(err));
    }
    if (err.message === CONNECT_ERROR_UNAUTHORIZED) {
      this.setState({
        status: 'refused',
        reason: 'unauthorized',
        message: `refused by ${this.url}: unauthorized (the token is wrong or missing, or the share it belongs to was revoked or has expired; pass --token or check the data directory's token file)`,
      });
    } else {
      this.setState({ status: 'refused', reason: 'protocol_mismatch', message: `refused by ${this.url}: ${err.message}` });
    }
  }

  private onEvent(raw: unknown): void {
    const attachment = this.attachment;
    if (!attachment) return;
    const event = parseEvent(raw);
    if (event === 'unknown') return;
    if (!event) return this.emit({ kind: 'warning', message: 'ignored a malformed event from the server' });
    if (event.sessionId !== attachment.sessionId) return;
    if (attachment.buffer) {
      attachment.buffer.push(event);
      return;
    }
    this.deliver(attachment, event);
  }

  private deliver(attachment: Attachment, event: SessionEvent): void {
    if (!event.ephemeral) {
      if (event.seq <= attachment.lastSeq) return;
      attachment.lastSeq = event.seq;
    }
    this.emit({ kind: 'event', event });
  }

  private setState(state: ConnectionStatus): void {
    this.state = state;
    this.emit({ kind: 'connection', connection: state });
  }

  private readonly rawListeners = new Set<ClientListener>();

  private subscribeRaw(listener: ClientListener): () => void {
    this.rawListeners.add(listener);
    return () => this.rawListeners.delete(listener);
  }

  private emit(signal: ClientSignal): void {
    for (const listener of [...this.rawListeners]) listener(signal);
    for (const listener of [...this.listeners]) {
      try {
        listener(signal);
      } catch (err) {
        // A listener bug must not stop delivery to the others or break the socket.
        this.onListenerError(err);
      }
    }
  }
}

function parseEvent(raw: unknown): SessionEvent | null | 'unknown' {
  const parsed = SessionEventSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const type = typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : undefined;
  // A newer server may send event types this client does not know yet: skip them quietly.
  if (typeof type === 'string' && !KNOWN_TYPES.has(type)) return 'unknown';
  return null;
}

function unwrap<C extends CommandName>(command: C, reply: unknown): CommandResult<C> {
  if (typeof reply !== 'object' || reply === null || !('ok' in reply)) {
    throw new RequestError('internal', `${command}: the server sent an answer this client cannot read`);
  }
  const ack = reply as { ok: boolean; data?: unknown; error?: { code?: unknown; message?: unknown } };
  if (!ack.ok) {
    const code = typeof ack.error?.code === 'string' ? (ack.error.code as ErrorCode) : 'internal';
    const message = typeof ack.error?.message === 'string' ? ack.error.message : 'no message';
    throw new RequestError(code, message);
  }
  const parsed = Commands[command].result.safeParse(ack.data);
  if (!parsed.success) throw new RequestError('internal', `${command}: the server's answer has an unexpected shape`);
  return parsed.data as CommandResult<C>;
}

export function describe(state: ConnectionStatus): string {
  switch (state.status) {
    case 'connecting':
      return 'connecting';
    case 'connected':
      return 'connected';
    case 'reconnecting':
      return `reconnecting${state.attempt > 0 ? ` (attempt ${state.attempt})` : ''}: ${state.reason}`;
    case 'refused':
      return state.message;
    case 'closed':
      return 'closed';
  }
}

/** A TLS verification failure (self-signed, unknown issuer, wrong host name …), by its OpenSSL code; else undefined. */
function untrustedCertificate(err: Error): string | undefined {
  const code = (err as { description?: { error?: { code?: unknown } } }).description?.error?.code;
  if (typeof code !== 'string') return undefined;
  return /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS_CERT_ALTNAME/.test(code) ? code : undefined;
}

/** socket.io's "websocket error" says little; the cause (ECONNREFUSED …) says more. */
function connectErrorText(err: Error): string {
  const cause = (err as { description?: { message?: unknown; error?: { code?: unknown } } }).description;
  const code = cause?.error?.code;
  if (typeof code === 'string') return code === 'ECONNREFUSED' ? 'server not reachable (connection refused)' : `server not reachable (${code})`;
  return err.message;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** `connect(url, { token, name })`: a client that starts connecting at once (protocol version included). */
export function connect(url: string, options: ClientOptions): TandemClient {
  return new TandemClient(url, options);
}
