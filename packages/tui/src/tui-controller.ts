import type { CommandName, CommandPayload, CommandResult, Decision, SessionEvent } from '@tandem/shared';
import type { ClientSignal } from './client.js';
import { NO_DIALOG, focusDialog, trackDialog, unfocusDialog, type DialogFocus } from './input/dialog-focus.js';
import { keyIntent, type KeyIntent } from './input/key-intent.js';
import { editLine, emptyEditor, type KeyPress, type LineEditor } from './input/line-editor.js';
import { completeMention, mentionAt } from './input/mention-complete.js';
import { parseInput } from './input/slash-commands.js';
import { mentionNames } from './state/agents.js';
import { canApprove, watchOnlyText } from './state/access.js';
import { PanelController } from './panels/panel-controller.js';
import { type Action, MAX_ITEMS, initialState, reduce, runningCommand } from './state/reducer.js';
import type { CopyLine, ViewState } from './state/types.js';
import { runSlashCommand, undoTurns } from './slash-actions.js';
import { LASTING_DECISIONS } from './views/format-permission.js';

/** What the controller needs from the outside world; app.ts wires it to socket.io and blessed, tests to fakes. */
export interface TuiHost {
  request<C extends CommandName>(command: C, payload: CommandPayload<C>, timeoutMs?: number): Promise<CommandResult<C>>;
  /** The clock (ms): injectable so the dialog's half-second guard is tested without waiting. */
  now(): number;
  quit(code: number): void;
  scroll(pages: number): void;
  /** Whether the transcript shows its first line (scrolling up further asks for older history). */
  atTop(): boolean;
  pageRows(): number;
  /** Detaches and attaches this terminal to another session (the view resets on `attached`). */
  switchSession(sessionId: string): Promise<void>;
  /** Edits `text` in $VISUAL / $EDITOR; resolves with the result. */
  compose(text: string): Promise<string>;
  /** Puts `text` on the terminal's clipboard (OSC 52); the terminal may ignore it. */
  copyToClipboard(text: string): void;
}

/** A yes/no question in the input line, e.g. before /clear discards the conversation. */
export interface Confirmation {
  question: string;
  onYes: () => void;
}

/** Events per older page asked for when the user scrolls to the top. */
export const HISTORY_PAGE = 300;

/** Short-lived messages stay this long on the key-hint line. */
export const FLASH_MS = 3000;

/**
 * The TUI's behaviour without a terminal: the view state, the input line, who has the keys
 * (input line, permission dialog, panel, a yes/no question), and what each key and slash
 * command does. app.ts feeds it blessed keypresses and client signals and draws what it holds.
 */
export class TuiController {
  state: ViewState;
  editor: LineEditor = emptyEditor();
  dialog: DialogFocus = NO_DIALOG;
  confirm: Confirmation | null = null;
  flash: { text: string; until: number } | null = null;
  scopeIndex = 0;
  /** Something on screen changed since the last draw. */
  dirty = true;
  readonly panels: PanelController;
  private live = false;
  /** This terminal pressed Ctrl-C on the running turn (it is offered the files back). */
  private cancelledHere = false;
  private scopeFor = '';
  /** Where the events this view holds begin, when it was attached with a tail. */
  private history: { sessionId: string; firstSeq: number; hasMore: boolean; loading: boolean } | null = null;

  constructor(
    private readonly host: TuiHost,
    options: { url: string; me: string; role: ViewState['role'] },
  ) {
    this.state = initialState(options);
    this.panels = new PanelController({
      request: (command, payload) => host.request(command, payload),
      state: () => this.state,
      dispatch: (action) => this.dispatch(action),
      changed: () => {
        this.dirty = true;
      },
      pageRows: () => host.pageRows(),
      switchSession: (sessionId) => host.switchSession(sessionId),
      ask: (question, onYes) => this.ask(question, onYes),
      now: () => host.now(),
    });
  }

  dispatch(action: Action): void {
    this.state = reduce(this.state, action);
    this.syncDialog();
    this.dirty = true;
  }

  /** From now on events are live (after the first attach's replay). */
  goLive(): void {
    this.live = true;
  }

  get isLive(): boolean {
    return this.live;
  }

  onSignal(signal: ClientSignal): void {
    if (signal.kind === 'connection') this.dispatch({ kind: 'connection', connection: signal.connection });
    else if (signal.kind === 'attached') {
      // A re-attach after a reconnect replays after our last seq (no history info): keep what we know.
      if (signal.history) this.history = { sessionId: signal.session.id, ...signal.history, loading: false };
      else if (this.history?.sessionId !== signal.session.id) this.history = null;
      this.dispatch({ kind: 'attached', session: signal.session, role: signal.role });
    } else if (signal.kind === 'warning') this.dispatch({ kind: 'notice', level: 'warn', text: signal.message });
    else {
      this.dispatch({ kind: 'event', event: signal.event });
      // Someone came or went: the shares panel's "connected now" may have changed.
      if (signal.event.type === 'presence') this.panels.reload('shares');
      this.offerRestore(signal.event);
    }
  }

  /**
   * After this terminal's Ctrl-C: the conversation went back already; when the cancelled turn
   * changed files (its `checkpoint` event), one key puts them back too.
   */
  private offerRestore(event: SessionEvent): void {
    if (event.type === 'turn_started') this.cancelledHere = false;
    if (event.type !== 'checkpoint' || !event.cancelled || !this.cancelledHere || !this.live) return;
    this.cancelledHere = false;
    const names = event.files.map((f) => f.path);
    const shown = `${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''}`;
    this.ask(
      `The cancelled turn changed ${names.length} file${names.length === 1 ? '' : 's'} (${shown}). Put ${names.length === 1 ? 'it' : 'them'} back too? y / n`,
      () => {
        void this.run('/undo', () => undoTurns(this, 1));
      },
    );
  }

  sessionId(): string {
    return this.state.session?.id ?? '';
  }

  notice(level: 'info' | 'warn' | 'error', text: string, copy?: readonly CopyLine[]): void {
    this.dispatch({ kind: 'notice', level, text, ...(copy ? { copy } : {}) });
  }

  copyToClipboard(text: string): void {
    this.host.copyToClipboard(text);
  }

  showFlash(text: string): void {
    this.flash = { text, until: this.host.now() + FLASH_MS };
    this.dirty = true;
  }

  /** The flash to show now, if any. */
  currentFlash(now = this.host.now()): string | undefined {
    return this.flash && now < this.flash.until ? this.flash.text : undefined;
  }

  /** Runs a request; a failure becomes an error line in the transcript. */
  run(label: string, work: () => Promise<unknown>): Promise<void> {
    return work().then(
      () => undefined,
      (err: unknown) => this.notice('error', `${label} failed: ${errorText(err)}`),
    );
  }

  request<C extends CommandName>(command: C, payload: CommandPayload<C>, timeoutMs?: number): Promise<CommandResult<C>> {
    return this.host.request(command, payload, timeoutMs);
  }

  ask(question: string, onYes: () => void): void {
    this.confirm = { question, onYes };
    this.dirty = true;
  }

  quit(code = 0): void {
    this.host.quit(code);
  }

  key(press: KeyPress): void {
    // Refused for good (the share ended, the token is no longer accepted): the transcript says
    // why, and any key closes the screen (exit status 1: the session did not end by choice).
    if (this.live && this.state.connection.status === 'refused') return this.quit(1);
    // A key means the person moved on: a flash from before gives way to what the keys do now
    // (e.g. the @-completion hint), whatever the key itself then shows.
    if (this.flash) {
      this.flash = null;
      this.dirty = true;
    }
    const quitting = press.ctrl && (press.name === 'c' || press.name === 'd');
    const pending = this.state.pendingPermissions.length > 0;
    // An open panel takes every key but quit/cancel, a yes/no question, the focused dialog and F2.
    const dialogFirst = pending && (this.dialog.focused || press.name === 'f2');
    if (this.panels.panel && !quitting && !this.confirm && !dialogFirst && this.panels.key(press)) return;
    const intent = keyIntent(this.state, press, {
      dialogFocused: this.dialog.focused,
      inputEmpty: this.editor.text.length === 0,
      confirming: this.confirm !== null,
      mention: mentionAt(this.editor) !== null,
    });
    this.act(intent, press);
  }

  private act(intent: KeyIntent, press: KeyPress): void {
    switch (intent.kind) {
      case 'exit':
        return this.quit(0);
      case 'cancel_turn':
        this.cancelledHere = true;
        void this.run('cancelling', () => this.request('session:cancel', { sessionId: this.sessionId() }));
        return;
      case 'confirm': {
        const confirm = this.confirm;
        this.confirm = null;
        this.dirty = true;
        if (intent.yes) confirm?.onYes();
        else this.showFlash('cancelled: nothing was changed');
        return;
      }
      case 'focus_dialog': {
        const result = focusDialog(this.dialog, this.host.now(), this.editor.text);
        this.dialog = result.focus;
        if (result.refused) this.showFlash(result.refused);
        this.dirty = true;
        return;
      }
      case 'unfocus_dialog':
        this.dialog = unfocusDialog(this.dialog);
        this.dirty = true;
        return;
      case 'dialog_hint':
        return this.showFlash(
          `the permission dialog has the keys: ${this.state.share ? 'y s n d' : 'y s a n d'} answer, Tab scope, Esc back to the input line`,
        );
      case 'decide':
        return this.decide(intent.decision);
      case 'next_scope': {
        const first = this.state.pendingPermissions[0];
        if (first) this.scopeIndex = this.currentScope(first.requestId) + 1;
        this.dirty = true;
        return;
      }
      case 'cycle_mode':
        return runSlashCommand(this, { kind: 'mode', mode: null, cycle: true });
      case 'compose':
        return this.compose();
      case 'scroll':
        this.host.scroll(intent.pages);
        this.dirty = true;
        if (intent.pages < 0 && this.host.atTop()) this.loadOlder();
        return;
      case 'open_panel':
        return this.panels.open(intent.panel);
      case 'toggle_command_focus': {
        if (this.state.commandFocus) return this.dispatch({ kind: 'command_focus', callId: null });
        const callId = runningCommand(this.state);
        if (!callId) return this.showFlash('Ctrl-T: no command is running to type into');
        return this.dispatch({ kind: 'command_focus', callId });
      }
      case 'leave_command_focus':
        return this.dispatch({ kind: 'command_focus', callId: null });
      case 'toggle_hidden':
        return this.toggleHidden();
      case 'complete_mention':
        return this.completeMention();
      case 'watch_only':
        return this.showFlash(watchOnlyText(this.state));
      case 'edit': {
        // In a command, an empty Enter still matters (accept a default, page on).
        if (this.state.commandFocus && press.name === 'enter' && this.editor.text.length === 0) return this.typeIntoCommand('\r');
        const result = editLine(this.editor, press);
        this.editor = result.editor;
        this.dirty = true;
        if (result.submit !== undefined) this.submit(result.submit);
        return;
      }
      case 'none':
        return;
    }
  }

  /** Ctrl-O or /workers: this terminal shows anonymous workers' steps, or hides them again. */
  toggleHidden(): void {
    const show = !this.state.showHidden;
    this.dispatch({ kind: 'show_hidden', show });
    const hidden = this.state.agents.filter((run) => !run.visible).length;
    if (show)
      this.showFlash(
        hidden > 0
          ? `showing the steps of ${hidden} anonymous worker${hidden === 1 ? '' : 's'} · Ctrl-O hides them`
          : 'no anonymous workers yet; their steps will show (Ctrl-O hides them)',
      );
    else this.showFlash("anonymous workers' steps hidden · Ctrl-O shows them");
  }

  /** Tab after `@…`: the agent name completed, or the choices shown. */
  private completeMention(): void {
    const names = mentionNames(this.state);
    const result = completeMention(this.editor, names);
    this.editor = result.editor;
    this.dirty = true;
    if (result.candidates.length === 0) this.showFlash(`no agent by that name; known: ${names.map((name) => `@${name}`).join(' ')}`);
    else if (result.candidates.length > 1) this.showFlash(result.candidates.map((name) => `@${name}`).join(' '));
  }

  /** At the top of the transcript: the page of events before the oldest one shown, if there is one. */
  loadOlder(): void {
    const history = this.history;
    if (!history?.hasMore || history.loading) return;
    if (this.state.items.length >= MAX_ITEMS) return this.showFlash(`the view holds the last ${MAX_ITEMS} items; older history stays in the session's log`);
    history.loading = true;
    this.showFlash('loading older events...');
    const { sessionId, firstSeq } = history;
    this.request('session:history', { sessionId, beforeSeq: firstSeq, limit: HISTORY_PAGE }).then(
      (page) => {
        history.loading = false;
        if (this.history !== history) return;
        history.hasMore = page.hasMore;
        history.firstSeq = page.firstSeq ?? firstSeq;
        this.dispatch({ kind: 'history', events: page.events });
        this.showFlash(page.hasMore ? 'older events loaded; PgUp at the top loads more' : 'the beginning of the session');
      },
      (err: unknown) => {
        history.loading = false;
        this.notice('error', `loading older events failed: ${errorText(err)}`);
      },
    );
  }

  /** Puts a line back into the input line (e.g. a message that could not be sent). */
  restoreInput(text: string): void {
    this.editor = { ...this.editor, text, cursor: text.length };
    this.dirty = true;
  }

  submit(line: string): void {
    if (this.state.commandFocus) return this.typeIntoCommand(`${line}\r`);
    const command = parseInput(line);
    if (command.kind === 'send' && this.state.connection.status !== 'connected') {
      this.restoreInput(line);
      return this.notice('warn', 'not connected: the message was not sent (it is back in the input line)');
    }
    runSlashCommand(this, command);
  }

  typeIntoCommand(data: string): void {
    const callId = this.state.commandFocus;
    if (!callId) return;
    void this.run('typing into the command', () => this.request('command:input', { sessionId: this.sessionId(), callId, data }));
  }

  private decide(decision: Decision): void {
    const pending = this.state.pendingPermissions[0];
    if (!pending || !this.dialog.focused) return;
    // The server refuses a share a lasting rule for the whole workspace: say so, keep the dialog's keys.
    if (this.state.share && decision === 'allow_forever')
      return this.showFlash('a share allows once (y) or for this session (s); allow forever is for the host');
    const scopes = pending.scopes ?? [];
    const scope = LASTING_DECISIONS.has(decision) && scopes.length > 0 ? scopes[this.currentScope(pending.requestId) % scopes.length] : undefined;
    // The answer is given once: the dialog gives the keys back until the server resolves it.
    this.dialog = unfocusDialog(this.dialog);
    this.dirty = true;
    void this.run('answering the permission request', () =>
      this.request('permission:respond', { sessionId: this.sessionId(), requestId: pending.requestId, decision, ...(scope ? { scope } : {}) }),
    );
  }

  /** The scope choice belongs to one request; a new request starts at the narrowest again. */
  currentScope(requestId: string): number {
    if (this.scopeFor !== requestId) {
      this.scopeFor = requestId;
      this.scopeIndex = 0;
    }
    return this.scopeIndex;
  }

  private syncDialog(): void {
    const first = this.state.pendingPermissions[0];
    const next = trackDialog(this.dialog, canApprove(this.state) ? first?.requestId : undefined, this.host.now());
    if (next !== this.dialog) this.dialog = next;
    if (first) this.currentScope(first.requestId);
  }

  private compose(): void {
    const before = this.editor.text;
    this.host.compose(before).then(
      (text) => {
        const trimmed = text.replace(/\n+$/, '');
        this.restoreInput(trimmed);
        this.showFlash(trimmed.length > 0 ? 'composed in the editor: Enter sends it' : 'the editor left the message empty');
      },
      (err: unknown) => {
        this.restoreInput(before);
        this.notice('error', `composing in the editor failed: ${errorText(err)} (set $VISUAL or $EDITOR)`);
      },
    );
  }
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
