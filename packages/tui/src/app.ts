import type { Decision, Role } from '@tandem/shared';
import { TandemClient, type ClientSignal } from './client.js';
import { keyIntent } from './input/key-intent.js';
import { editLine, emptyEditor, type KeyPress } from './input/line-editor.js';
import { parseInput, SLASH_HELP } from './input/slash-commands.js';
import { chooseSession, type SessionChoice } from './session-choice.js';
import { PanelController } from './panels/panel-controller.js';
import { panelContent } from './panels/panel-content.js';
import { type Action, initialState, reduce, runningCommand } from './state/reducer.js';
import type { ViewState } from './state/types.js';
import { LASTING_DECISIONS } from './views/format-permission.js';
import { Layout, type LocalView } from './views/layout.js';

export interface TuiOptions extends SessionChoice {
  url: string;
  token: string;
  /** Shown to everyone attached, e.g. `ana@laptop`. */
  name: string;
  connectTimeoutMs?: number;
}

const TICK_MS = 50;
const SPINNER_MS = 100;
const FLASH_MS = 3000;
const RESOLVED_MS = 2500;

/**
 * Connects, picks the session, attaches (driver unless viewer), replays, then stays live until
 * the user quits. Resolves with the process exit code. Errors before the screen opens go to
 * stderr; after that, everything is shown on screen and nothing writes to stdout.
 */
export async function runTui(options: TuiOptions): Promise<number> {
  const role: Role = options.viewer ? 'viewer' : 'driver';
  const client = new TandemClient(options.url, {
    token: options.token,
    name: options.name,
    onListenerError: (err) => dispatch({ kind: 'notice', level: 'error', text: `internal error while showing an event: ${errorText(err)}` }),
  });
  let state = initialState({ url: options.url, me: options.name, role });
  let dirty = true;
  const dispatch = (action: Action) => {
    state = reduce(state, action);
    dirty = true;
  };
  let live = false;
  const local: LocalView = { editor: emptyEditor(), resolvedUntil: 0, flashUntil: 0, spinnerFrame: 0, now: Date.now(), scopeIndex: 0 };
  let scopeFor = '';

  client.subscribe((signal: ClientSignal) => {
    if (signal.kind === 'connection') dispatch({ kind: 'connection', connection: signal.connection });
    else if (signal.kind === 'attached') dispatch({ kind: 'attached', session: signal.session, role: signal.role });
    else if (signal.kind === 'warning') dispatch({ kind: 'notice', level: 'warn', text: signal.message });
    else {
      const event = signal.event;
      // Flash who answered only for answers given while we watch, not for replayed history.
      if (live && event.type === 'permission_resolved' && state.pendingPermissions.some((p) => p.requestId === event.requestId)) {
        local.resolvedUntil = Date.now() + RESOLVED_MS;
      }
      dispatch({ kind: 'event', event });
    }
  });

  try {
    await client.ready(options.connectTimeoutMs ?? 10_000);
    const session = await chooseSession(client, options);
    await client.attach(session.id, role);
    live = true;
  } catch (err) {
    client.close();
    process.stderr.write(`tandem: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }

  const layout = new Layout();
  return new Promise<number>((resolve) => {
    let finished = false;
    const finish = (code: number) => {
      if (finished) return;
      finished = true;
      clearInterval(timer);
      layout.destroy();
      void client.detach().finally(() => {
        client.close();
        resolve(code);
      });
    };

    const request = (label: string, run: () => Promise<unknown>) => {
      run().catch((err: unknown) => {
        dispatch({ kind: 'notice', level: 'error', text: `${label} failed: ${errorText(err)}` });
      });
    };
    const sessionId = () => state.session?.id ?? '';
    const panels = new PanelController({
      request: (command, payload) => client.request(command, payload),
      state: () => state,
      dispatch,
      changed: () => {
        dirty = true;
      },
      pageRows: () => layout.panelRows(),
    });
    const typeIntoCommand = (data: string) => {
      const callId = state.commandFocus;
      if (!callId) return;
      request('typing into the command', () => client.request('command:input', { sessionId: sessionId(), callId, data }));
    };

    const submit = (line: string) => {
      if (state.commandFocus) return typeIntoCommand(`${line}\r`);
      const command = parseInput(line);
      switch (command.kind) {
        case 'send':
          if (state.connection.status !== 'connected') {
            local.editor = { ...local.editor, text: line, cursor: line.length };
            dispatch({ kind: 'notice', level: 'warn', text: 'not connected: the message was not sent (it is back in the input line)' });
            return;
          }
          return request('sending', () => client.request('session:send', { sessionId: sessionId(), text: command.text }));
        case 'new':
          return request('/new', async () => {
            const result = await client.request('session:new', { sessionId: sessionId() });
            if (!result.consolidated) dispatch({ kind: 'notice', level: 'warn', text: `/new: conversation kept: ${result.reason ?? 'not consolidated'}` });
          });
        case 'compact':
          return request('/compact', async () => {
            const result = await client.request('session:compact', { sessionId: sessionId() }, 120_000);
            if (!result.compacted) dispatch({ kind: 'notice', level: 'info', text: `/compact: nothing compacted: ${result.reason ?? 'no reason given'}` });
          });
        case 'quit':
          return finish(0);
        case 'help':
          return dispatch({ kind: 'notice', level: 'info', text: SLASH_HELP });
        case 'input': {
          const callId = runningCommand(state);
          if (!callId) return dispatch({ kind: 'notice', level: 'warn', text: '/in: no command is running' });
          return request('/in', () => client.request('command:input', { sessionId: sessionId(), callId, data: `${command.text}\r` }));
        }
        case 'panel':
          return panels.open(command.panel);
        case 'unknown':
          return dispatch({ kind: 'notice', level: 'warn', text: `unknown command /${command.name}; /help lists them` });
      }
    };

    const decide = (decision: Decision) => {
      const pending = state.pendingPermissions[0];
      if (!pending) return;
      const scopes = pending.scopes ?? [];
      const scope = LASTING_DECISIONS.has(decision) && scopes.length > 0 ? scopes[currentScope(pending.requestId) % scopes.length] : undefined;
      request('answering the permission request', () =>
        client.request('permission:respond', { sessionId: sessionId(), requestId: pending.requestId, decision, ...(scope ? { scope } : {}) }),
      );
    };
    /** The scope choice belongs to one request; a new request starts at the narrowest again. */
    const currentScope = (requestId: string) => {
      if (scopeFor !== requestId) {
        scopeFor = requestId;
        local.scopeIndex = 0;
      }
      return local.scopeIndex;
    };

    layout.screen.on('keypress', (ch: string | undefined, key: { name?: string; ctrl?: boolean; meta?: boolean } | undefined) => {
      // blessed reports Enter twice ('return', then 'enter'); act on 'enter' only.
      if (key?.name === 'return') return;
      try {
        onKey(ch, key);
      } catch (err) {
        dispatch({ kind: 'notice', level: 'error', text: `internal error handling a key: ${errorText(err)}` });
      }
    });

    const onKey = (ch: string | undefined, key: { name?: string; ctrl?: boolean; meta?: boolean } | undefined) => {
      const press: KeyPress = { ch, name: key?.name, ctrl: Boolean(key?.ctrl), meta: Boolean(key?.meta) };
      // An open panel takes every key but quit/cancel; a permission request still comes first.
      const quitting = press.ctrl && (press.name === 'c' || press.name === 'd');
      if (panels.panel && !quitting && state.pendingPermissions.length === 0 && panels.key(press)) return;
      const intent = keyIntent(state, press);
      switch (intent.kind) {
        case 'exit':
          return finish(0);
        case 'cancel_turn':
          return request('cancelling', () => client.request('session:cancel', { sessionId: sessionId() }));
        case 'decide':
          return decide(intent.decision);
        case 'next_scope': {
          const pending = state.pendingPermissions[0];
          if (pending) local.scopeIndex = currentScope(pending.requestId) + 1;
          dirty = true;
          return;
        }
        case 'scroll':
          layout.scroll(intent.pages);
          dirty = true;
          return;
        case 'open_panel':
          return panels.open(intent.panel);
        case 'toggle_command_focus': {
          if (state.commandFocus) return dispatch({ kind: 'command_focus', callId: null });
          const callId = runningCommand(state);
          if (!callId) return flash('Ctrl-T: no command is running to type into');
          return dispatch({ kind: 'command_focus', callId });
        }
        case 'leave_command_focus':
          return dispatch({ kind: 'command_focus', callId: null });
        case 'watch_only':
          local.flash = 'watch-only: attached with the view token; a driver must send messages';
          local.flashUntil = Date.now() + FLASH_MS;
          dirty = true;
          return;
        case 'edit': {
          // In a command, an empty Enter still matters (accept a default, page on).
          if (state.commandFocus && press.name === 'enter' && local.editor.text.length === 0) return typeIntoCommand('\r');
          const result = editLine(local.editor, press);
          local.editor = result.editor;
          dirty = true;
          if (result.submit !== undefined) submit(result.submit);
          return;
        }
        case 'none':
          return;
      }
    };
    const flash = (text: string) => {
      local.flash = text;
      local.flashUntil = Date.now() + FLASH_MS;
      dirty = true;
    };
    layout.screen.on('resize', () => {
      dirty = true;
    });
    process.once('SIGTERM', () => finish(0));
    process.once('SIGHUP', () => finish(0));

    let lastSpin = 0;
    let drawFailed = false;
    const timer = setInterval(() => {
      const now = Date.now();
      local.now = now;
      if (animating(state, local, now) && now - lastSpin >= SPINNER_MS) {
        lastSpin = now;
        local.spinnerFrame += 1;
        dirty = true;
      }
      if (!dirty) return;
      dirty = false;
      const first = state.pendingPermissions[0];
      if (first) currentScope(first.requestId);
      try {
        layout.render(state, local, panels.panel ? { panel: panels.panel, content: panelContent(panels.panel, state) } : null);
      } catch (err) {
        // Reported once: a drawing bug must not flood the transcript on every tick.
        if (!drawFailed) dispatch({ kind: 'notice', level: 'error', text: `internal error while drawing: ${errorText(err)}` });
        drawFailed = true;
      }
    }, TICK_MS);
    layout.render(state, local);
  });
}

/** Whether something on screen changes with time alone (spinner, countdown, flash). */
function animating(state: ViewState, local: LocalView, now: number): boolean {
  return state.turn.phase !== 'idle' || state.pendingPermissions.length > 0 || now < local.flashUntil || now < local.resolvedUntil + SPINNER_MS;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
