import type { Role, WhoAmI } from '@tandem/shared';
import { TandemClient } from './client.js';
import { dialogFocusView } from './input/dialog-focus.js';
import type { KeyPress } from './input/line-editor.js';
import { mentionCandidates } from './input/mention-complete.js';
import { mentionNames } from './state/agents.js';
import { chooseSession, type SessionChoice } from './session-choice.js';
import { panelContent } from './panels/panel-content.js';
import type { ViewState } from './state/types.js';
import { TuiController, errorText } from './tui-controller.js';
import { composeInEditor } from './views/compose-in-editor.js';
import { Layout, type LocalView } from './views/layout.js';
import { noColorWanted } from './views/no-color.js';
import { routePastes } from './input/paste-input.js';

export interface TuiOptions extends SessionChoice {
  url: string;
  token: string;
  /** Shown to everyone attached, e.g. `ana@laptop`. */
  name: string;
  connectTimeoutMs?: number;
  /** What to trust for an https:// server (PEM certificates; see ClientOptions.ca). */
  ca?: string[] | undefined;
  /**
   * A client of `url` already connected (by `tandem` to pick the session), used and closed by
   * the TUI instead of a second connection before the first screen.
   */
  client?: TandemClient | undefined;
}

const TICK_MS = 50;
const SPINNER_MS = 100;

/**
 * Connects, asks who it is (`client:whoami`: a share opens its one session, as driver only with
 * the `send` right), picks the session, attaches (driver unless viewer), replays, then stays
 * live until the user quits. Resolves with the process exit code. Errors before the screen
 * opens go to stderr; after that, everything is shown on screen and nothing writes to stdout
 * (if the server refuses us for good, e.g. our share was revoked, the reason is written to
 * stderr too once the screen closes). What keys and commands do lives in TuiController (tested
 * without a terminal); this file wires it to socket.io and blessed.
 */
export async function runTui(options: TuiOptions): Promise<number> {
  let role: Role = options.viewer ? 'viewer' : 'driver';
  let layout: Layout | null = null;
  let quit: (code: number) => void = () => undefined;
  const client =
    options.client ??
    new TandemClient(options.url, {
      token: options.token,
      name: options.name,
      ...(options.ca ? { ca: options.ca } : {}),
    });
  client.handleListenerErrors((err) => tui.notice('error', `internal error while showing an event: ${errorText(err)}`));
  const tui = new TuiController(
    {
      request: (command, payload, timeoutMs) => client.request(command, payload, timeoutMs),
      now: () => Date.now(),
      quit: (code) => quit(code),
      scroll: (pages) => layout?.scroll(pages),
      atTop: () => layout?.atTop() ?? false,
      pageRows: () => layout?.panelRows() ?? 10,
      switchSession: async (sessionId) => {
        await client.detach();
        await client.attach(sessionId, role, 0, { tail: attachTail() });
      },
      compose: (text) => (layout ? composeInEditor(layout.screen, text) : Promise.resolve(text)),
      copyToClipboard: (text) => layout?.copyToClipboard(text),
    },
    { url: options.url, me: options.name, role },
  );
  client.subscribe((signal) => tui.onSignal(signal));
  // A client handed over connected has told its connection before this subscription.
  if (options.client) tui.onSignal({ kind: 'connection', connection: client.connection });

  try {
    await client.ready(options.connectTimeoutMs ?? 10_000);
    // A server without client:whoami (older than shares) has no shares: go on as before.
    const whoami = await client.request('client:whoami', {}).catch(() => null);
    if (whoami) role = attachRole(role, whoami);
    const session = await chooseSession(client, { ...options, viewer: role === 'viewer', sessionId: options.sessionId ?? whoami?.share?.sessionId });
    await client.attach(session.id, role, 0, { tail: attachTail() });
    // After the replay, so a share holder reads what the share allows where the transcript ends.
    if (whoami) tui.dispatch({ kind: 'whoami', whoami });
    tui.goLive();
  } catch (err) {
    client.close();
    process.stderr.write(`tandem: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }

  const screen = new Layout({ noColor: noColorWanted() });
  layout = screen;
  const stopPastes = routePastes(screen.screen.program.input, (text) => {
    try {
      tui.paste(text);
    } catch (err) {
      tui.notice('error', `internal error handling a paste: ${errorText(err)}`);
    }
  });
  return new Promise<number>((resolve) => {
    let finished = false;
    quit = (code: number) => {
      if (finished) return;
      finished = true;
      clearInterval(timer);
      stopPastes();
      screen.destroy();
      const { connection } = tui.state;
      if (connection.status === 'refused') process.stderr.write(`tandem: ${connection.message}\n`);
      void client.detach().finally(() => {
        client.close();
        resolve(code);
      });
    };

    screen.screen.on('keypress', (ch: string | undefined, key: { name?: string; ctrl?: boolean; meta?: boolean; shift?: boolean } | undefined) => {
      // blessed reports Enter twice ('return', then 'enter'); act on 'enter' only.
      if (key?.name === 'return') return;
      const press: KeyPress = { ch, name: key?.name, ctrl: Boolean(key?.ctrl), meta: Boolean(key?.meta), shift: Boolean(key?.shift) };
      try {
        tui.key(press);
      } catch (err) {
        tui.notice('error', `internal error handling a key: ${errorText(err)}`);
      }
    });
    screen.screen.on('resize', () => {
      tui.dirty = true;
    });
    process.once('SIGTERM', () => quit(0));
    process.once('SIGHUP', () => quit(0));

    let lastSpin = 0;
    let drawFailed = false;
    let spinnerFrame = 0;
    const draw = () => {
      const now = Date.now();
      const local: LocalView = {
        editor: tui.editor,
        flash: tui.currentFlash(now),
        spinnerFrame,
        now,
        scopeIndex: tui.scopeIndex,
        dialog: dialogFocusView(tui.dialog, now, tui.editor.text),
        question: tui.confirm?.question,
        mentions: mentionCandidates(tui.editor, mentionNames(tui.state)),
      };
      const panel = tui.panels.panel;
      screen.render(tui.state, local, panel ? { panel, content: panelContent(panel, tui.state) } : null);
    };
    const timer = setInterval(() => {
      const now = Date.now();
      if (animating(tui, now) && now - lastSpin >= SPINNER_MS) {
        lastSpin = now;
        spinnerFrame += 1;
        tui.dirty = true;
      }
      if (!tui.dirty) return;
      tui.dirty = false;
      try {
        draw();
      } catch (err) {
        // Reported once: a drawing bug must not flood the transcript on every tick.
        if (!drawFailed) tui.notice('error', `internal error while drawing: ${errorText(err)}`);
        drawFailed = true;
      }
    }, TICK_MS);
    draw();
  });
}

/** A share without the `send` right (viewer, approver) and the view token attach as viewer. */
function attachRole(wanted: Role, whoami: WhoAmI): Role {
  if (whoami.kind === 'view') return 'viewer';
  if (whoami.share && !whoami.share.rights.includes('send')) return 'viewer';
  return wanted;
}

/**
 * Events asked for on attach: a few screens' worth, bounded by the terminal, never by the log;
 * older events come a page at a time when the user scrolls to the top.
 */
function attachTail(): number {
  return Math.min(1000, Math.max(200, (process.stdout.rows || 40) * 5));
}

/** Whether something on screen changes with time alone (spinner, countdowns, a flash, the dialog's focus hint). */
function animating(tui: TuiController, now: number): boolean {
  const state: ViewState = tui.state;
  return (
    state.turn.phase !== 'idle' ||
    state.pendingPermissions.length > 0 ||
    state.connection.status === 'reconnecting' ||
    (tui.flash !== null && now < tui.flash.until + SPINNER_MS)
  );
}
