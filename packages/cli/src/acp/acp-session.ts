import type { ContentBlock, RequestPermissionRequest, RequestPermissionResponse, SessionUpdate, StopReason } from '@agentclientprotocol/sdk';
import { MAX_PAGE_EVENTS, type EventOf, type SessionEvent, type SessionInfo } from '@tandem/shared';
import { sendAndFollow } from '../headless/follow-turn.js';
import type { ServerConnection } from '../headless/server-connection.js';
import type { TurnOutcome } from '../headless/turn-tracker.js';
import { approvalModeOf } from './acp-modes.js';
import { decisionOf, PERMISSION_OPTIONS } from './acp-permission.js';
import { promptText } from './acp-prompt.js';
import { AcpEventTranslator } from './acp-updates.js';

/** What a session needs of the ACP connection (the editor). */
export interface EditorSide {
  update(sessionId: string, update: SessionUpdate): Promise<void>;
  requestPermission(request: RequestPermissionRequest, cancel: AbortSignal): Promise<RequestPermissionResponse>;
}

export interface AcpSessionOptions {
  /** Its own connected client (a session attaches its client to itself). */
  connection: ServerConnection;
  session: SessionInfo;
  editor: EditorSide;
  /** The name the client connected with. */
  by: string;
  /** Whether the server's files are this machine's (diffs may read them). */
  localFiles: boolean;
}

/** How often a running command's output is sent to the editor at most. */
const OUTPUT_EVERY_MS = 100;

/** A turn ended in a way ACP has no stop reason for (a model error, a lost server): the prompt fails with this. */
export class TurnFailedError extends Error {
  override readonly name = 'TurnFailedError';
}

/**
 * One ACP session: a live Tandem session this editor is attached to as driver. Every event of
 * the session (the editor's turns and anyone else's) reaches the editor as `session/update`s, in
 * order; each permission request becomes a `session/request_permission`, and whoever answers
 * first — the editor, a terminal or the web viewer — decides it: when someone else did, the
 * editor's request is cancelled.
 */
export class AcpSession {
  private readonly translator: AcpEventTranslator;
  /** Updates go out one after another, in event order. */
  private queue: Promise<void> = Promise.resolve();
  private replaying = false;
  private readonly open = new Map<string, EventOf<'permission_request'>>();
  private readonly asking = new Map<string, AbortController>();
  private readonly outputTimers = new Map<string, NodeJS.Timeout>();
  private readonly unsubscribe: () => void;
  private prompting: AbortController | undefined;
  private closed = false;

  private constructor(private readonly options: AcpSessionOptions) {
    this.translator = new AcpEventTranslator({ cwd: options.session.cwd, localFiles: options.localFiles, by: options.by });
    this.unsubscribe = options.connection.client.subscribe((signal) => {
      if (signal.kind === 'event') this.observe(signal.event);
    });
  }

  get id(): string {
    return this.options.session.id;
  }

  get info(): SessionInfo {
    return this.options.session;
  }

  /**
   * Attaches as driver. With `replay`, the session's history (its last page of events) goes to
   * the editor first, and permission requests still open are asked; resolves once all of it is sent.
   */
  static async open(options: AcpSessionOptions, replay: boolean): Promise<AcpSession> {
    const session = new AcpSession(options);
    const { client } = options.connection;
    session.replaying = replay;
    try {
      if (replay) await client.attach(session.id, 'driver', 0, { tail: MAX_PAGE_EVENTS });
      else await client.attach(session.id, 'driver', options.session.lastSeq);
    } catch (err) {
      session.close();
      throw err;
    }
    session.replaying = false;
    for (const request of session.open.values()) session.ask(request);
    await session.queue;
    return session;
  }

  /** A `session/prompt`: one turn (or steering of the running one); resolves with its stop reason once every update is out. */
  async prompt(blocks: readonly ContentBlock[]): Promise<StopReason> {
    const text = promptText(blocks);
    if (!text) throw new TurnFailedError('the prompt is empty');
    const stop = new AbortController();
    this.prompting = stop;
    let outcome: TurnOutcome;
    try {
      outcome = await sendAndFollow(this.options.connection.client, {
        sessionId: this.id,
        text,
        by: this.options.by,
        signal: stop.signal,
        serverGone: this.options.connection.serverGone,
      });
    } finally {
      if (this.prompting === stop) this.prompting = undefined;
    }
    await this.queue;
    return stopReasonOf(outcome);
  }

  /** `session/cancel`: stops the turn (the editor's prompt then ends `cancelled`). */
  cancel(): void {
    if (this.prompting) this.prompting.abort();
    else void this.options.connection.client.request('session:cancel', { sessionId: this.id }).catch(() => undefined);
  }

  /** `session/set_mode`: the session's approval mode, for everyone attached. */
  async setMode(modeId: string): Promise<void> {
    const mode = approvalModeOf(modeId);
    if (!mode) throw new Error(`unknown mode "${modeId}"`);
    await this.options.connection.client.request('session:configure', { sessionId: this.id, mode });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.prompting?.abort();
    for (const ask of this.asking.values()) ask.abort();
    for (const timer of this.outputTimers.values()) clearTimeout(timer);
    this.unsubscribe();
    this.options.connection.client.close();
  }

  private observe(event: SessionEvent): void {
    const replay = this.replaying;
    this.send(() => this.translator.updates(event, replay));
    if (event.type === 'command_output') this.scheduleOutput(event.callId);
    if (event.type === 'tool_result') this.cancelOutput(event.callId);
    if (event.type === 'permission_request') {
      if (replay) this.open.set(event.requestId, event);
      else this.ask(event);
    }
    if (event.type === 'permission_resolved') {
      this.open.delete(event.requestId);
      // Answered elsewhere (a terminal, the web viewer), or timed out: the editor stops asking.
      this.asking.get(event.requestId)?.abort();
    }
  }

  private send(updates: () => Promise<SessionUpdate[]> | SessionUpdate[]): void {
    this.queue = this.queue.then(async () => {
      for (const update of await updates()) {
        if (this.closed) return;
        await this.options.editor.update(this.id, update).catch(() => undefined);
      }
    });
  }

  private scheduleOutput(callId: string): void {
    if (this.outputTimers.has(callId)) return;
    this.outputTimers.set(
      callId,
      setTimeout(() => {
        this.outputTimers.delete(callId);
        this.send(() => this.translator.outputUpdate(callId));
      }, OUTPUT_EVERY_MS),
    );
  }

  private cancelOutput(callId: string): void {
    const timer = this.outputTimers.get(callId);
    if (timer) clearTimeout(timer);
    this.outputTimers.delete(callId);
  }

  /** Asks the editor once the call's `tool_call` is out; answers the server with the editor's choice. */
  private ask(request: EventOf<'permission_request'>): void {
    const cancel = new AbortController();
    this.asking.set(request.requestId, cancel);
    void this.queue
      .then(async () => {
        if (cancel.signal.aborted || this.closed) return;
        const call = this.translator.describeCall(request.callId);
        const response = await this.options.editor.requestPermission(
          {
            sessionId: this.id,
            toolCall: { toolCallId: request.callId, status: 'pending', ...(call ?? { title: request.tool, rawInput: request.args }) },
            options: PERMISSION_OPTIONS,
          },
          cancel.signal,
        );
        if (cancel.signal.aborted || response.outcome.outcome !== 'selected') return;
        const decision = decisionOf(response.outcome.optionId);
        if (!decision) return;
        // Someone may have answered first: the server then says conflict, and their answer stands.
        await this.options.connection.client
          .request('permission:respond', { sessionId: this.id, requestId: request.requestId, decision })
          .catch(() => undefined);
      })
      .catch(() => undefined)
      .finally(() => this.asking.delete(request.requestId));
  }
}

/** ACP's stop reason for how a Tandem turn ended; a failure with no stop reason of its own is an error. */
function stopReasonOf(outcome: TurnOutcome): StopReason {
  switch (outcome.end) {
    case 'answered':
      return 'end_turn';
    case 'cancelled':
      return 'cancelled';
    case 'max_iterations':
      return 'max_turn_requests';
    case 'permission_timeout':
    case 'loop_stopped':
      return 'refusal';
    case 'interrupted':
      throw new TurnFailedError('the tandem server stopped during the turn');
    default:
      throw new TurnFailedError(outcome.error ? `${outcome.error.code}: ${outcome.error.message}` : `the turn ended: ${outcome.end}`);
  }
}
