import type { SessionInfo, WhoAmI } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { FOCUS_DELAY_MS } from './input/dialog-focus.js';
import { panelContent } from './panels/panel-content.js';
import type { NoticeItem } from './state/types.js';
import { carlaShare } from './share-info.test-helper.js';
import { attachedController, DEMO_SESSION, fakeHost } from './tui-controller.test-helper.js';

// Shares in the TUI without a terminal: /share, the /shares panel, what a share's holder may
// do (an approver answers permission requests while watching), and the end of a share. A fake
// host records requests, the clipboard and quits; the clock is moved, never waited on.

const SESSION: SessionInfo = { ...DEMO_SESSION, mode: 'ask' };

const NOW = Date.parse('2026-01-01T12:00:00.000Z');

const CARLA = carlaShare({ createdBy: 'ana', expiresAt: '2026-01-02T11:00:00.000Z', connected: 1 });

const CONTROL: WhoAmI = { kind: 'control', name: 'ana' };
const approverOf = (role: 'viewer' | 'approver' | 'driver'): WhoAmI => ({
  kind: 'share',
  name: 'carla',
  share: { id: 'sh_1', sessionId: 's1', role, rights: role === 'viewer' ? ['view'] : role === 'approver' ? ['view', 'approve'] : ['view', 'send', 'approve'] },
});

function setup(whoami: WhoAmI, role: 'driver' | 'viewer' = whoami.share && whoami.share.role !== 'driver' ? 'viewer' : 'driver') {
  const sent: Array<{ command: string; payload: unknown }> = [];
  const clipboard: string[] = [];
  const quits: number[] = [];
  const clock = { now: NOW };
  const answers: Record<string, unknown> = {
    'share:create': { share: CARLA, token: 'tsh_secret' },
    'share:list': { shares: [CARLA] },
    'share:revoke': { share: { ...CARLA, revokedAt: '2026-01-01T12:00:00.000Z', revokedBy: 'ana' } },
  };
  const host = fakeHost({
    request: (command, payload) => {
      sent.push({ command, payload });
      const answer = answers[command];
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve((answer ?? {}) as never);
    },
    now: () => clock.now,
    quit: (code) => {
      quits.push(code);
    },
    copyToClipboard: (text) => {
      clipboard.push(text);
    },
  });
  const { tui, event, type, press, askToRun } = attachedController(host, { session: SESSION, role, me: 'ana@laptop', url: 'http://127.0.0.1:7777/' });
  tui.dispatch({ kind: 'whoami', whoami });
  tui.goLive();
  const ask = (requestId: string) => askToRun(requestId, { expiresAt: '2026-01-01T13:00:00.000Z' });
  const submit = (line: string) => {
    type(line);
    press('enter');
  };
  const commands = (name: string) => sent.filter((entry) => entry.command === name);
  const notices = () => tui.state.items.filter((item): item is NoticeItem => item.kind === 'notice');
  return { tui, sent, answers, clipboard, quits, clock, event, ask, press, type, submit, commands, notices };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('/share', () => {
  it('creates a share of the attached session and shows the link and the attach line, each on its own line; the link goes to the clipboard', async () => {
    const { tui, submit, commands, clipboard, notices } = setup(CONTROL);
    submit('/share approver carla');
    await flush();
    expect(commands('share:create').map((entry) => entry.payload)).toEqual([{ sessionId: 's1', name: 'carla', role: 'approver' }]);
    const invite = notices().at(-1);
    expect(invite?.text).toMatch(/^share for carla: approver \(you can watch this session and answer its permission requests\) · until 2026-01-02/);
    expect(invite?.text).toContain('the token is shown only this once');
    expect(invite?.copy).toEqual([
      { label: 'web link', text: 'http://127.0.0.1:7777/?session=s1#token=tsh_secret' },
      { label: 'terminal', text: 'tandem attach s1 --url http://127.0.0.1:7777 --token tsh_secret' },
      { label: 'token', text: 'tsh_secret' },
    ]);
    expect(clipboard).toEqual(['http://127.0.0.1:7777/?session=s1#token=tsh_secret']);
    expect(tui.currentFlash()).toContain("sent to the terminal's clipboard");
  });

  it('defaults to a viewer share for a guest; an unknown role is refused with the roles listed, nothing created', async () => {
    const { submit, commands, notices } = setup(CONTROL);
    submit('/share');
    submit('/share carla');
    await flush();
    expect(commands('share:create').map((entry) => entry.payload)).toEqual([{ sessionId: 's1', name: 'guest', role: 'viewer' }]);
    expect(notices().map((item) => item.text)).toContain('/share: "carla" is not a role; the roles are viewer, approver, driver (e.g. /share approver carla)');
  });

  it("a share's holder and the view token are told who may invite, and nothing is asked of the server", async () => {
    const driverShare = setup(approverOf('driver'));
    driverShare.submit('/share viewer dan');
    await flush();
    expect(driverShare.commands('share:create')).toEqual([]);
    expect(driverShare.notices().at(-1)?.text).toMatch(
      /^\/share: only the host \(the server's control token\) lets people in; you came in with a share \(driver: /,
    );

    const view = setup({ kind: 'view', name: 'bo' }, 'driver');
    view.submit('/share');
    await flush();
    expect(view.commands('share:create')).toEqual([]);
    expect(view.notices().at(-1)?.text).toContain('this client uses the view token');
  });

  it('a failed request says so in the transcript', async () => {
    const { submit, answers, notices } = setup(CONTROL);
    answers['share:create'] = Object.assign(new Error('no session has id s1'), { code: 'not_found' });
    submit('/share driver dan');
    await flush();
    expect(notices().at(-1)).toMatchObject({ level: 'error', text: '/share failed: no session has id s1' });
  });
});

describe('the shares panel (/shares, F9)', () => {
  it('lists the shares with who is connected; r asks first, n changes nothing, y revokes and lists again', async () => {
    const { tui, press, type, commands } = setup(CONTROL);
    press('f9');
    await flush();
    expect(commands('share:list').map((entry) => entry.payload)).toEqual([{ sessionId: 's1' }]);
    const panel = tui.panels.panel;
    if (!panel) throw new Error('the panel did not open');
    const content = panelContent(panel, tui.state, NOW);
    expect(content.title).toBe('shares of this session · 1 active · 1 connected now');
    expect(content.rows[0]?.text.replace(/\s+/g, ' ')).toBe('carla approver 1 connected expires in 23 h 0 m');

    type('r');
    expect(tui.confirm?.question).toBe("Revoke carla's share (approver)? They are disconnected at once and the link stops working. y / n");
    type('n');
    expect(tui.confirm).toBeNull();
    expect(commands('share:revoke')).toEqual([]);

    type('r');
    type('y');
    await flush();
    expect(commands('share:revoke').map((entry) => entry.payload)).toEqual([{ id: 'sh_1' }]);
    expect(commands('share:list')).toHaveLength(2);
    expect(tui.panels.panel?.message?.text).toBe("revoked carla's share (approver): disconnected, and the link no longer works");
  });

  it('a control-token viewer may revoke too (the question takes y from a viewer)', async () => {
    const { press, type, commands } = setup(CONTROL, 'viewer');
    press('f9');
    await flush();
    type('r');
    type('y');
    await flush();
    expect(commands('share:revoke')).toHaveLength(1);
  });

  it('refreshes when someone comes or goes (presence)', async () => {
    const { press, event, commands } = setup(CONTROL);
    press('f9');
    await flush();
    event({ type: 'presence', clients: [{ id: 'x', name: 'carla', role: 'viewer', shareRole: 'approver' }] });
    await flush();
    expect(commands('share:list')).toHaveLength(2);
  });

  it("a share's holder is told the panel is not open to it, without asking the server", async () => {
    const { tui, press, commands } = setup(approverOf('approver'));
    press('f9');
    await flush();
    expect(commands('share:list')).toEqual([]);
    const panel = tui.panels.panel;
    if (!panel) throw new Error('the panel did not open');
    expect(panelContent(panel, tui.state, NOW).empty).toBe(
      "this session's shares: not open to a share (you came in as approver: you can watch this session and answer its permission requests)",
    );
  });
});

describe("a share's holder", () => {
  it('is told once what the share allows, under its own name', () => {
    const { tui, notices } = setup(approverOf('approver'));
    expect(tui.state.me).toBe('carla');
    expect(notices().map((item) => item.text)).toEqual([
      'you joined as carla with a share · approver: you can watch this session and answer its permission requests',
    ]);
  });

  it('an approver answers permission requests while watching (F2, then y), but not "allow forever"', async () => {
    const { tui, ask, press, type, clock, commands } = setup(approverOf('approver'));
    expect(tui.state.role).toBe('viewer');
    ask('r1');
    clock.now += FOCUS_DELAY_MS;
    press('f2');
    expect(tui.dialog.focused).toBe(true);
    type('a');
    expect(tui.currentFlash()).toBe('a share allows once (y) or for this session (s); allow forever is for the host');
    expect(tui.dialog.focused).toBe(true);
    type('y');
    await flush();
    expect(commands('permission:respond').map((entry) => entry.payload)).toEqual([{ sessionId: 's1', requestId: 'r1', decision: 'allow_once' }]);
  });

  it('a viewer share never gets the dialog keys; typing says what the share allows', () => {
    const { tui, ask, press, type, clock, commands } = setup(approverOf('viewer'));
    ask('r1');
    clock.now += FOCUS_DELAY_MS;
    press('f2');
    press('enter');
    type('y');
    expect(tui.dialog.focused).toBe(false);
    expect(commands('permission:respond')).toEqual([]);
    expect(tui.currentFlash()).toBe('viewer: you can watch this session; a driver sends messages');
  });

  it('a driver share sends messages like a driver', async () => {
    const { submit, commands } = setup(approverOf('driver'));
    submit('hello');
    await flush();
    expect(commands('session:send').map((entry) => entry.payload)).toEqual([{ sessionId: 's1', text: 'hello' }]);
  });

  it('when the share ends the transcript says why, the dialog goes, and any key closes the screen with status 1', () => {
    const { tui, ask, type, quits, notices } = setup(approverOf('approver'));
    ask('r1');
    const message = 'your share of this session was revoked by ana; ask its host if you need to come back';
    tui.onSignal({ kind: 'connection', connection: { status: 'refused', reason: 'share_ended', message } });
    expect(notices().at(-1)).toMatchObject({ level: 'error', text: `${message} · press any key to close` });
    expect(tui.state.pendingPermissions).toEqual([]);
    expect(quits).toEqual([]);
    type('x');
    expect(quits).toEqual([1]);
  });
});
