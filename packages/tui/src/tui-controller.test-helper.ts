import type { SessionEvent, SessionInfo } from '@tandem/shared';
import type { KeyPress } from './input/line-editor.js';
import { TuiController, type TuiHost } from './tui-controller.js';

// The controller tests' shared set-up, without a terminal: a fake host (each test replaces what
// it watches: requests, the clock, quits, the clipboard) and a controller attached to a session.

/** The session the controller tests attach to; a test spreads it and adds what it needs. */
export const DEMO_SESSION: SessionInfo = {
  id: 's1',
  title: 'demo',
  cwd: '/w/demo',
  model: 'openai/gpt-4.1-mini',
  createdAt: '2026-01-01T00:00:00.000Z',
  status: 'idle',
  lastSeq: 0,
};

/** A host that answers every request with `{ mode: 'turn' }`, at a fixed time, with one page of 10 rows; `overrides` replace any part. */
export function fakeHost(overrides: Partial<TuiHost> = {}): TuiHost {
  return {
    request: () => Promise.resolve({ mode: 'turn' } as never),
    now: () => 1_000_000,
    quit: () => undefined,
    scroll: () => undefined,
    atTop: () => false,
    pageRows: () => 10,
    switchSession: () => Promise.resolve(),
    compose: (text) => Promise.resolve(text),
    copyToClipboard: () => undefined,
    ...overrides,
  };
}

/**
 * A controller on `host`, connected and attached to `session` (DEMO_SESSION unless given) in
 * `role`, with what the tests drive it by: `event` feeds a session event (seq counted from 1),
 * `type` types text key by key, `press` presses a named key,
 * `askToRun` puts up a permission request.
 */
export function attachedController(host: TuiHost, options: { session?: SessionInfo; role?: 'driver' | 'viewer'; me?: string; url?: string } = {}) {
  const role = options.role ?? 'driver';
  const session = options.session ?? DEMO_SESSION;
  const tui = new TuiController(host, { url: options.url ?? 'http://127.0.0.1:7777', me: options.me ?? 'ana', role });
  tui.onSignal({ kind: 'connection', connection: { status: 'connected' } });
  tui.onSignal({ kind: 'attached', session, role, replayed: 0 });
  let seq = 0;
  const event = (body: Record<string, unknown>) => {
    seq += 1;
    tui.onSignal({ kind: 'event', event: { sessionId: session.id, seq, ts: '2026-01-01T00:00:00.000Z', ...body } as SessionEvent });
  };
  const type = (text: string) => {
    for (const ch of text) tui.key({ ch, name: /[a-z]/.test(ch) ? ch : undefined, ctrl: false, meta: false });
  };
  const press = (name: string, extra: Partial<KeyPress> = {}) => tui.key({ name, ctrl: false, meta: false, ...extra });
  /** A dangerous `rm -rf build` waiting for an answer (until 00:05 unless `extra` says otherwise). */
  const askToRun = (requestId: string, extra: Record<string, unknown> = {}) =>
    event({
      type: 'permission_request',
      requestId,
      callId: `c-${requestId}`,
      tool: 'run_command',
      args: { command: 'rm -rf build' },
      danger: 'dangerous',
      expiresAt: '2026-01-01T00:05:00.000Z',
      ...extra,
    });
  return { tui, event, type, press, askToRun };
}
