import { describe, expect, it } from 'vitest';
import { parseInput, SLASH_HELP } from '../input/slash-commands.js';
import { PANEL_KEYS } from '../input/key-intent.js';
import { sharesContent } from '../panels/shares-panel.js';
import { timeLeft } from '../panels/time-text.js';
import { shareInvite } from '../share-invite.js';
import { initialState, reduce } from '../state/reducer.js';
import type { PendingPermission, ViewState } from '../state/types.js';
import { formatPermission } from './format-permission.js';
import { formatHelp, formatStatus } from './format-status.js';
import { formatTranscript } from './format-transcript.js';
import { formatInput } from './input-view.js';
import { emptyEditor } from '../input/line-editor.js';
import { osc52 } from './osc52.js';
import { carlaShare } from '../share-info.test-helper.js';
import { plain } from './plain-text.test-helper.js';

const NOW = Date.parse('2026-01-01T12:00:00.000Z');
const SHARE = carlaShare({ expiresAt: '2026-01-01T14:30:00.000Z', connected: 2 });
const REQUEST: PendingPermission = {
  seq: 3,
  requestId: 'r1',
  callId: 'c1',
  tool: 'run_command',
  args: { command: 'make' },
  danger: 'dangerous',
  expiresAt: '2026-01-01T12:05:00.000Z',
  scopes: ['make', 'make *'],
};

const connected = (state: ViewState): ViewState => reduce(state, { kind: 'connection', connection: { status: 'connected' } });
const host: ViewState = connected(initialState({ url: 'http://127.0.0.1:7777', me: 'ana', role: 'driver' }));
const asShare = (role: 'viewer' | 'approver' | 'driver'): ViewState =>
  reduce(connected(initialState({ url: 'http://127.0.0.1:7777', me: 'mallory', role: role === 'driver' ? 'driver' : 'viewer' })), {
    kind: 'whoami',
    whoami: {
      kind: 'share',
      name: 'carla',
      share: {
        id: 'sh_1',
        sessionId: 's1',
        role,
        rights: role === 'viewer' ? ['view'] : role === 'approver' ? ['view', 'approve'] : ['view', 'send', 'approve'],
      },
    },
  });

describe('the presence line and the role', () => {
  it("shows each other person's name with their share role, else the role they attached as", () => {
    const state: ViewState = {
      ...host,
      presence: [
        { id: '1', name: 'ana', role: 'driver' },
        { id: '2', name: 'bo', role: 'viewer' },
        { id: '3', name: 'carla', role: 'viewer', shareRole: 'approver' },
        { id: '4', name: 'dan', role: 'driver', shareRole: 'driver' },
      ],
    };
    expect(plain(formatStatus(state, 0))).toContain('with bo (viewer), carla (approver), dan (driver)');
  });

  it("a share's holder reads what the share allows in the status line, shortened on a narrow line", () => {
    const approver = asShare('approver');
    expect(plain(formatStatus(approver, 0))).toContain('approver: you can watch this session and answer its permission requests');
    const narrow = plain(formatStatus(approver, 0, { width: 60 }));
    expect(narrow).toContain('approver share');
    expect(narrow.length).toBeLessThanOrEqual(60);
    expect(plain(formatStatus(host, 0))).toMatch(/│ driver │/);
  });

  it("whoami: the name is the share's; told once on attach; kept when the view switches session", () => {
    const approver = asShare('approver');
    expect(approver.me).toBe('carla');
    expect(approver.tokenKind).toBe('share');
    expect(formatTranscript(approver.items).map(plain)).toEqual([
      '· you joined as carla with a share · approver: you can watch this session and answer its permission requests',
    ]);
    const session = { id: 's1', title: '', cwd: '/w', model: 'm', createdAt: '', status: 'idle' as const, lastSeq: 0 };
    const first = reduce(approver, { kind: 'attached', session, role: 'viewer' });
    const other = reduce(first, { kind: 'attached', session: { ...session, id: 's2' }, role: 'viewer' });
    expect(other.share?.role).toBe('approver');
    expect(other.tokenKind).toBe('share');
    const control = reduce(host, { kind: 'whoami', whoami: { kind: 'control', name: 'ana' } });
    expect(control.items).toEqual([]);
  });
});

describe("what a share's holder is offered", () => {
  it('an approver gets the dialog keys (no allow forever) and the hints to use them', () => {
    const approver: ViewState = { ...asShare('approver'), pendingPermissions: [REQUEST] };
    const lines = formatPermission(REQUEST, { role: 'viewer', canAnswer: true, share: true, now: NOW, more: 0, focus: 'focused' }).map(plain);
    expect(lines).toContain('[y] allow once   [s] allow for this session');
    expect(lines.join('\n')).not.toContain('[a]');
    expect(lines.join('\n')).toContain('s / d apply to:');
    // Watching, the approver has no input line for the dialog to mention.
    const ready = formatPermission(REQUEST, { role: 'viewer', canAnswer: true, share: true, now: NOW, more: 0, focus: 'ready' }).map(plain);
    expect(ready.at(-1)).toBe('F2 or Enter on the empty line: answer here');
    expect(plain(formatHelp(approver, { dialog: 'focused' }))).toBe(' y allow once · s session · n deny · d deny forever · Tab scope · Esc back to input');
    expect(plain(formatHelp(approver, { dialog: 'ready' }))).toBe(' permission waiting: F2 or Enter on the empty line to answer · Ctrl-C quit');
    expect(plain(formatInput(emptyEditor(), 100, { viewer: true, watching: 'approver: F2' }))).toBe('approver: F2');
  });

  it('a viewer share watches: no choices, its own hint', () => {
    const viewer: ViewState = { ...asShare('viewer'), pendingPermissions: [REQUEST] };
    const lines = formatPermission(REQUEST, { role: 'viewer', canAnswer: false, share: true, now: NOW, more: 0 }).map(plain);
    expect(lines).toContain('watch-only: a driver or an approver answers this request');
    expect(plain(formatHelp(viewer))).toMatch(/^ viewer share · PgUp\/PgDn scroll · F3 jobs · F7 sessions · Ctrl-D or Ctrl-C quit$/);
    // The host's own choices keep allow forever.
    const hostLines = formatPermission(REQUEST, { role: 'driver', now: NOW, more: 0, focus: 'focused' }).map(plain);
    expect(hostLines.join('\n')).toContain('[a] allow forever');
  });

  it('once the server refuses this client for good, the hint line says any key closes', () => {
    const ended = reduce(asShare('viewer'), { kind: 'connection', connection: { status: 'refused', reason: 'share_ended', message: 'your share expired' } });
    expect(plain(formatHelp(ended))).toBe(' the server no longer lets this client in: any key closes this screen');
    expect(plain(formatStatus(ended, 0))).toContain('○ your share expired');
  });

  it('the host is offered F9 for shares', () => {
    expect(plain(formatHelp(host))).toContain('F9 shares');
    expect(plain(formatHelp(asShare('driver')))).not.toContain('F9');
  });
});

describe('/share and /shares', () => {
  it('parses the role first (default viewer), the rest is the name (default guest)', () => {
    expect(parseInput('/share')).toEqual({ kind: 'share', role: 'viewer', name: 'guest' });
    expect(parseInput('/share Approver')).toEqual({ kind: 'share', role: 'approver', name: 'guest' });
    expect(parseInput('/share driver Carla Diaz')).toEqual({ kind: 'share', role: 'driver', name: 'Carla Diaz' });
    expect(parseInput('/share boss carla')).toEqual({
      kind: 'bad',
      message: '/share: "boss" is not a role; the roles are viewer, approver, driver (e.g. /share approver carla)',
    });
    expect(parseInput(`/share viewer ${'x'.repeat(65)}`)).toMatchObject({ kind: 'bad', message: expect.stringContaining('at most 64 characters') });
    expect(parseInput('/shares')).toEqual({ kind: 'panel', panel: 'shares' });
    expect(parseInput('/share ls')).toEqual({ kind: 'panel', panel: 'shares' });
    expect(PANEL_KEYS.f9).toBe('shares');
    expect(SLASH_HELP).toContain('/share [viewer|approver|driver] [NAME]');
    expect(SLASH_HELP).toContain('/shares or F9');
  });

  it('the invitation: the web link with the token in the fragment, the attach line, each drawn alone on its line', () => {
    const invite = shareInvite('https://box.example:7777/', SHARE, 'tsh_abc');
    expect(invite.link).toBe('https://box.example:7777/?session=s1#token=tsh_abc');
    expect(invite.copy.map((line) => line.text)).toEqual([invite.link, 'tandem attach s1 --url https://box.example:7777 --token tsh_abc', 'tsh_abc']);
    expect(invite.text).not.toContain('reaches only this machine');
    expect(shareInvite('http://127.0.0.1:7777', SHARE, 'tsh_abc').text).toContain('127.0.0.1 reaches only this machine');
    const lines = formatTranscript([{ kind: 'notice', level: 'info', text: invite.text, copy: invite.copy }]).map(plain);
    expect(lines.slice(1)).toEqual([
      '  web link:',
      invite.link,
      '  terminal:',
      'tandem attach s1 --url https://box.example:7777 --token tsh_abc',
      '  token:',
      'tsh_abc',
    ]);
  });

  it('OSC 52 carries the text base64-encoded to the clipboard', () => {
    expect(osc52('héllo')).toBe(`\u001b]52;c;${Buffer.from('héllo').toString('base64')}\u0007`);
  });

  it('the panel: active shares first with who is connected and time left, then expired and revoked ones', () => {
    const content = sharesContent(
      [
        { ...SHARE, id: 'sh_old', name: 'old', createdAt: '2026-01-01T09:00:00.000Z', expiresAt: '2026-01-01T10:00:00.000Z', connected: 0 },
        { ...SHARE, id: 'sh_gone', name: 'bob', role: 'driver', revokedAt: '2026-01-01T11:30:00.000Z', revokedBy: 'ana', connected: 0 },
        SHARE,
      ],
      NOW,
    );
    expect(content.title).toBe('shares of this session · 1 active · 2 connected now');
    expect(content.rows.map((row) => [row.key, row.text.replace(/\s+/g, ' '), row.tone])).toEqual([
      ['sh_1', 'carla approver 2 connected expires in 2 h 30 m', 'good'],
      ['sh_gone', expect.stringMatching(/^bob driver revoked by ana 2026-01-01 \d\d:30$/), 'muted'],
      ['sh_old', expect.stringMatching(/^old approver expired 2026-01-01 \d\d:00$/), 'muted'],
    ]);
    expect(content.actions.map((action) => action.key)).toEqual(['r']);
    expect(sharesContent([], NOW).empty).toContain('/share [viewer|approver|driver] NAME');
    expect([timeLeft(30_000), timeLeft(45 * 60_000), timeLeft(26 * 3_600_000 + 60_000)]).toEqual(['under a minute', '45 m', '1 d 2 h']);
  });
});
