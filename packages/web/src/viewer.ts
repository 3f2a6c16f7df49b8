import { type Decision, type SessionInfo, TURN_END_TYPES } from '@tandem/shared';
import { type ClientSignal, RequestError, TandemClient } from '@tandem/tui/client';
import { type Action, initialState, MAX_ITEMS, reduce, type ViewState } from '@tandem/tui/state';
import { type Access, accessOf } from './access.js';
import { fullOutputs } from './full-outputs.js';
import { loginRefusedText } from './status-text.js';

export interface ViewerOptions {
  /** The server's origin: the page is served by the server it talks to. */
  url: string;
  token: string;
  name: string;
  /** Called after every change of `state` or `sessions`; the page batches its drawing. */
  onChange: () => void;
  /** The token came from a share link (the refusal then speaks of the link), not the form. */
  fromLink?: boolean;
}

/** Events asked for per older page when the reader scrolls to the top of the transcript. */
export const HISTORY_PAGE = 300;

/**
 * Where the transcript begins: older events can be fetched (`more`), are on their way
 * (`loading`), do not exist (`start`), or are left in the log because the view is full (`capped`).
 */
export type HistoryMark = 'more' | 'loading' | 'start' | 'capped';

/** Events before the first one held: set by an attach with a tail, moved back by each older page. */
interface HistoryCursor {
  sessionId: string;
  firstSeq: number;
  hasMore: boolean;
  loading: boolean;
}

/** Events asked for on opening a session: a few screens' worth, bounded by the window, never by the log. */
export function attachTail(windowHeight: number): number {
  return Math.min(1000, Math.max(200, Math.ceil(windowHeight / 20) * 5));
}

/** Events after which the session list (its statuses) is worth asking for again. */
const LIST_CHANGING = new Set(['turn_started', ...TURN_END_TYPES, 'permission_request', 'permission_resolved', 'session_configured']);

/**
 * One connection of the page: the TUI's own client (same handshake, same re-attach from the
 * last seq after a reconnect) and the TUI's own reducer. The token lives only in this object
 * and the socket's handshake.
 */
export class Viewer {
  state: ViewState;
  sessions: SessionInfo[] = [];
  /** What this connection may do (`client:whoami`), known once `ready()` resolved. */
  access: Access | null = null;
  private readonly client: TandemClient;
  private opening = 0;
  private history: HistoryCursor | null = null;

  constructor(private readonly options: ViewerOptions & { tail?: number }) {
    this.state = initialState({ url: options.url, me: options.name, role: 'viewer' });
    this.client = new TandemClient(options.url, {
      token: options.token,
      name: options.name,
      reconnectionDelayMs: 300,
      reconnectionDelayMaxMs: 5_000,
      onListenerError: (err) => console.error('tandem viewer:', err),
    });
    this.client.subscribe((signal) => this.onSignal(signal));
  }

  /**
   * Resolves once connected and the server said who this connection is (`client:whoami`);
   * rejects with a message for the page if the server refuses the token.
   */
  async ready(): Promise<Access> {
    try {
      await this.client.ready(10_000);
    } catch (err) {
      const state = this.client.connection;
      if (state.status === 'refused' && state.reason === 'unauthorized') throw new Error(loginRefusedText(this.options.fromLink === true));
      throw err;
    }
    const access = accessOf(await this.client.request('client:whoami', {}));
    this.access = access;
    this.state = { ...this.state, me: access.name };
    this.options.onChange();
    return access;
  }

  get openId(): string | null {
    return this.state.session?.id ?? null;
  }

  /** The share ended (revoked or expired): the client stopped and the page says why. */
  get ended(): boolean {
    const connection = this.state.connection;
    return connection.status === 'refused' && connection.reason === 'share_ended';
  }

  /** Attached as driver to the open session, with a token or share that may send. */
  get driving(): boolean {
    return this.access?.maySend === true && this.state.role === 'driver' && this.state.session !== null && !this.ended;
  }

  /** May answer the open session's permission requests: a driver, or a share with `approve` (attached as viewer). */
  get answering(): boolean {
    const access = this.access;
    if (!access?.mayAnswer || this.state.session === null || this.ended) return false;
    return access.kind === 'share' || this.state.role === 'driver';
  }

  /** Where the transcript begins (see HistoryMark); null while no session is open. */
  get historyMark(): HistoryMark | null {
    if (!this.state.session) return null;
    const history = this.history;
    if (!history?.hasMore) return 'start';
    if (history.loading) return 'loading';
    return this.state.items.length >= MAX_ITEMS ? 'capped' : 'more';
  }

  /** The page of events before the oldest one held, folded above the transcript (as the TUI does on PgUp at the top). */
  async loadOlder(): Promise<void> {
    const history = this.history;
    if (!history?.hasMore || history.loading || this.state.items.length >= MAX_ITEMS) return;
    history.loading = true;
    this.options.onChange();
    const { sessionId, firstSeq } = history;
    try {
      const page = await this.client.request('session:history', { sessionId, beforeSeq: firstSeq, limit: HISTORY_PAGE });
      if (this.history !== history) return;
      history.hasMore = page.hasMore;
      history.firstSeq = page.firstSeq ?? firstSeq;
      for (const event of page.events) fullOutputs.observe(event);
      this.dispatch({ kind: 'history', events: page.events });
    } catch (err) {
      if (this.history === history) this.notice('error', `could not load earlier events: ${message(err)}`);
    } finally {
      history.loading = false;
      this.options.onChange();
    }
  }

  async refreshSessions(): Promise<void> {
    try {
      this.sessions = (await this.client.request('session:list', {})).sessions;
      this.options.onChange();
    } catch (err) {
      if (!(err instanceof RequestError && err.code === 'disconnected')) this.notice('warn', `could not list the sessions: ${message(err)}`);
    }
  }

  /**
   * Attaches to a session with its last `tail` events (older ones come page by page from
   * loadOlder), in the role this connection's access gives: driver with the control token or a
   * driver share, else viewer (an approver answers permission requests as a viewer).
   */
  async open(sessionId: string): Promise<void> {
    const attempt = ++this.opening;
    await this.client.detach();
    if (attempt !== this.opening) return;
    this.history = null;
    const role = this.access?.attachAs ?? 'viewer';
    const me = this.access?.name ?? this.options.name;
    this.state = { ...initialState({ url: this.options.url, me, role }), connection: this.state.connection };
    this.options.onChange();
    try {
      await this.client.attach(sessionId, role, 0, { tail: this.options.tail ?? attachTail(600) });
    } catch (err) {
      if (attempt === this.opening) this.notice('error', `could not open the session: ${message(err)}`);
    }
  }

  async send(text: string): Promise<boolean> {
    const sessionId = this.openId;
    if (!sessionId) return false;
    return this.run('send', () => this.client.request('session:send', { sessionId, text }));
  }

  async respond(requestId: string, decision: Decision): Promise<boolean> {
    const sessionId = this.openId;
    if (!sessionId) return false;
    return this.run('answer', () => this.client.request('permission:respond', { sessionId, requestId, decision }));
  }

  async cancel(): Promise<boolean> {
    const sessionId = this.openId;
    if (!sessionId) return false;
    return this.run('stop', () => this.client.request('session:cancel', { sessionId }));
  }

  close(): void {
    this.client.close();
  }

  private async run(what: string, request: () => Promise<unknown>): Promise<boolean> {
    try {
      await request();
      return true;
    } catch (err) {
      const code = err instanceof RequestError ? `${err.code}: ` : '';
      this.notice('error', `could not ${what}: ${code}${message(err)}`);
      return false;
    }
  }

  private onSignal(signal: ClientSignal): void {
    if (signal.kind === 'connection') {
      this.dispatch({ kind: 'connection', connection: signal.connection });
      if (signal.connection.status === 'connected') void this.refreshSessions();
    } else if (signal.kind === 'attached') {
      // A re-attach after a reconnect replays after the last seq (no history info): keep the cursor.
      if (signal.history) this.history = { sessionId: signal.session.id, ...signal.history, loading: false };
      else if (this.history?.sessionId !== signal.session.id) this.history = null;
      this.dispatch({ kind: 'attached', session: signal.session, role: signal.role });
      void this.refreshSessions();
    } else if (signal.kind === 'warning') {
      this.dispatch({ kind: 'notice', level: 'warn', text: signal.message });
    } else {
      fullOutputs.observe(signal.event);
      this.dispatch({ kind: 'event', event: signal.event });
      if (LIST_CHANGING.has(signal.event.type)) void this.refreshSessions();
    }
  }

  /** A line in the open session's transcript (this page only). */
  notice(level: 'info' | 'warn' | 'error', text: string): void {
    this.dispatch({ kind: 'notice', level, text });
  }

  private dispatch(action: Action): void {
    this.state = reduce(this.state, action);
    this.options.onChange();
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
