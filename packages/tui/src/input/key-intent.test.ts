import { describe, expect, it } from 'vitest';
import { initialState } from '../state/reducer.js';
import type { ViewState } from '../state/types.js';
import { keyIntent } from './key-intent.js';
import { parseInput } from './slash-commands.js';

const base = initialState({ url: 'u', me: 'me', role: 'driver' });
const running: ViewState = { ...base, turn: { phase: 'thinking', turnId: 't1' } };
const viewer: ViewState = { ...running, role: 'viewer' };
const asking: ViewState = {
  ...running,
  turn: { phase: 'waiting_permission', turnId: 't1' },
  pendingPermissions: [{ seq: 3, requestId: 'r1', callId: 'c1', tool: 'run_command', args: {}, danger: 'dangerous', expiresAt: '' }],
};
const ctrl = (name: string) => ({ name, ctrl: true, meta: false });
const ch = (c: string) => ({ ch: c, name: c, ctrl: false, meta: false });

describe('keyIntent', () => {
  it('Ctrl-C cancels a running turn for a driver, and exits when idle or watching', () => {
    expect(keyIntent(running, ctrl('c'))).toEqual({ kind: 'cancel_turn' });
    expect(keyIntent(base, ctrl('c'))).toEqual({ kind: 'exit' });
    expect(keyIntent(viewer, ctrl('c'))).toEqual({ kind: 'exit' });
    expect(keyIntent(running, ctrl('d'))).toEqual({ kind: 'exit' });
  });

  it('answers a permission request with one key once the dialog has focus', () => {
    const focused = { dialogFocused: true, inputEmpty: true, confirming: false };
    expect(keyIntent(asking, ch('y'), focused)).toEqual({ kind: 'decide', decision: 'allow_once' });
    expect(keyIntent(asking, ch('s'), focused)).toEqual({ kind: 'decide', decision: 'allow_session' });
    expect(keyIntent(asking, ch('a'), focused)).toEqual({ kind: 'decide', decision: 'allow_forever' });
    expect(keyIntent(asking, ch('n'), focused)).toEqual({ kind: 'decide', decision: 'deny_once' });
    expect(keyIntent(asking, ch('D'), focused)).toEqual({ kind: 'decide', decision: 'deny_forever' });
    expect(keyIntent(asking, ch('x'), focused)).toEqual({ kind: 'dialog_hint' });
    expect(keyIntent(asking, { name: 'escape', ctrl: false, meta: false }, focused)).toEqual({ kind: 'unfocus_dialog' });
  });

  it('without focus the dialog keys type into the input line; F2 or Enter on an empty line asks for focus', () => {
    for (const letter of ['y', 's', 'a', 'n', 'd']) expect(keyIntent(asking, ch(letter))).toEqual({ kind: 'edit' });
    expect(keyIntent(asking, { name: 'f2', ctrl: false, meta: false })).toEqual({ kind: 'focus_dialog' });
    const enter = { name: 'enter', ctrl: false, meta: false };
    expect(keyIntent(asking, enter, { dialogFocused: false, inputEmpty: true, confirming: false })).toEqual({ kind: 'focus_dialog' });
    // Enter with text sends the text as usual; it never answers.
    expect(keyIntent(asking, enter, { dialogFocused: false, inputEmpty: false, confirming: false })).toEqual({ kind: 'edit' });
  });

  it('Tab offers another scope only when there is more than one (focused dialog)', () => {
    const focused = { dialogFocused: true, inputEmpty: true, confirming: false };
    const tab = { name: 'tab', ch: '\t', ctrl: false, meta: false };
    expect(keyIntent(asking, tab, focused)).toEqual({ kind: 'none' });
    const scoped: ViewState = { ...asking, pendingPermissions: [{ ...asking.pendingPermissions[0]!, scopes: ['npm test', 'npm *'] }] };
    expect(keyIntent(scoped, tab, focused)).toEqual({ kind: 'next_scope' });
    expect(keyIntent(scoped, tab)).toEqual({ kind: 'edit' });
  });

  it('a yes/no question takes y, n and Esc, and nothing else', () => {
    const confirming = { dialogFocused: false, inputEmpty: true, confirming: true };
    expect(keyIntent(base, ch('y'), confirming)).toEqual({ kind: 'confirm', yes: true });
    expect(keyIntent(base, ch('N'), confirming)).toEqual({ kind: 'confirm', yes: false });
    expect(keyIntent(base, { name: 'escape', ctrl: false, meta: false }, confirming)).toEqual({ kind: 'confirm', yes: false });
    expect(keyIntent(base, ch('x'), confirming)).toEqual({ kind: 'none' });
  });

  it('Shift-Tab cycles the approval mode; Ctrl-G composes in the editor', () => {
    expect(keyIntent(base, { name: 'tab', ctrl: false, meta: false, shift: true })).toEqual({ kind: 'cycle_mode' });
    expect(keyIntent(base, ctrl('g'))).toEqual({ kind: 'compose' });
  });

  it('a viewer cannot type or answer', () => {
    expect(keyIntent(viewer, ch('h'))).toEqual({ kind: 'watch_only' });
    expect(keyIntent(viewer, { name: 'enter', ctrl: false, meta: false })).toEqual({ kind: 'watch_only' });
    expect(keyIntent({ ...asking, role: 'viewer' }, ch('y'))).toEqual({ kind: 'watch_only' });
    expect(keyIntent(viewer, { name: 'pageup', ctrl: false, meta: false })).toEqual({ kind: 'scroll', pages: -1 });
  });

  it('a driver types otherwise', () => {
    expect(keyIntent(base, ch('y'))).toEqual({ kind: 'edit' });
    expect(keyIntent(running, { name: 'enter', ctrl: false, meta: false })).toEqual({ kind: 'edit' });
  });
});

describe('parseInput', () => {
  it('knows the slash commands', () => {
    expect(parseInput('/new')).toEqual({ kind: 'new' });
    expect(parseInput('  /compact ')).toEqual({ kind: 'compact' });
    expect(parseInput('/quit')).toEqual({ kind: 'quit' });
    expect(parseInput('/nope')).toEqual({ kind: 'unknown', name: 'nope' });
    expect(parseInput('/in yes please')).toEqual({ kind: 'input', text: 'yes please' });
    expect(parseInput('/input')).toEqual({ kind: 'input', text: '' });
  });

  it('/model, /mode, /title, /clear, /sessions, with clear errors for bad arguments', () => {
    expect(parseInput('/model anthropic/claude-sonnet-4-5')).toEqual({ kind: 'model', model: 'anthropic/claude-sonnet-4-5' });
    expect(parseInput('/model')).toEqual({ kind: 'model', model: null });
    expect(parseInput('/model gpt4')).toMatchObject({ kind: 'bad', message: expect.stringContaining('not provider/model') });
    expect(parseInput('/mode auto-edit')).toEqual({ kind: 'mode', mode: 'auto-edit' });
    expect(parseInput('/mode READ-ONLY')).toEqual({ kind: 'mode', mode: 'read-only' });
    expect(parseInput('/mode')).toEqual({ kind: 'mode', mode: null });
    expect(parseInput('/mode yolo')).toMatchObject({ kind: 'bad', message: '/mode: "yolo" is not a mode; use ask, auto-edit, read-only, full-auto' });
    expect(parseInput('/title  fix the login bug ')).toEqual({ kind: 'title', title: 'fix the login bug' });
    expect(parseInput('/title')).toMatchObject({ kind: 'bad' });
    expect(parseInput('/clear')).toEqual({ kind: 'clear' });
    expect(parseInput('/sessions')).toEqual({ kind: 'panel', panel: 'sessions' });
  });

  it('sends everything else, and //x as /x', () => {
    expect(parseInput('hello /new')).toEqual({ kind: 'send', text: 'hello /new' });
    expect(parseInput('//etc/hosts?')).toEqual({ kind: 'send', text: '/etc/hosts?' });
  });
});

describe('panel and command-focus keys', () => {
  it('F3–F6 open the panels, for viewers too', () => {
    const f = (name: string) => ({ name, ctrl: false, meta: false });
    expect(keyIntent(base, f('f3'))).toEqual({ kind: 'open_panel', panel: 'jobs' });
    expect(keyIntent(base, f('f4'))).toEqual({ kind: 'open_panel', panel: 'permissions' });
    expect(keyIntent(viewer, f('f5'))).toEqual({ kind: 'open_panel', panel: 'audit' });
    expect(keyIntent(viewer, f('f6'))).toEqual({ kind: 'open_panel', panel: 'memory' });
    expect(keyIntent(viewer, f('f7'))).toEqual({ kind: 'open_panel', panel: 'sessions' });
  });

  it('Ctrl-T toggles typing into the command for a driver; Esc leaves it', () => {
    expect(keyIntent(running, ctrl('t'))).toEqual({ kind: 'toggle_command_focus' });
    expect(keyIntent(viewer, ctrl('t'))).toEqual({ kind: 'watch_only' });
    const focused: ViewState = { ...running, commandFocus: 'c1' };
    expect(keyIntent(focused, { name: 'escape', ctrl: false, meta: false })).toEqual({ kind: 'leave_command_focus' });
    expect(keyIntent(running, { name: 'escape', ctrl: false, meta: false })).toEqual({ kind: 'none' });
  });

  it('/jobs /permissions /audit /memory open panels', () => {
    expect(parseInput('/jobs')).toEqual({ kind: 'panel', panel: 'jobs' });
    expect(parseInput('/permissions')).toEqual({ kind: 'panel', panel: 'permissions' });
    expect(parseInput('/audit')).toEqual({ kind: 'panel', panel: 'audit' });
    expect(parseInput('/memory')).toEqual({ kind: 'panel', panel: 'memory' });
  });
});

describe('keys for a share and for a yes/no question', () => {
  const share = (role: 'viewer' | 'approver', rights: Array<'view' | 'approve'>): ViewState => ({
    ...asking,
    role: 'viewer',
    tokenKind: 'share',
    share: { id: 'sh', sessionId: 's', role, rights },
  });
  const f2 = { name: 'f2', ctrl: false, meta: false };
  const focused = { dialogFocused: true, inputEmpty: true, confirming: false };

  it('an approver watches, yet F2 or Enter hands it the dialog and y answers', () => {
    const approver = share('approver', ['view', 'approve']);
    expect(keyIntent(approver, f2)).toEqual({ kind: 'focus_dialog' });
    expect(keyIntent(approver, { name: 'enter', ctrl: false, meta: false })).toEqual({ kind: 'focus_dialog' });
    expect(keyIntent(approver, ch('y'), focused)).toEqual({ kind: 'decide', decision: 'allow_once' });
    expect(keyIntent(approver, ch('y'))).toEqual({ kind: 'watch_only' });
  });

  it('a viewer share never answers, even if the dialog were focused', () => {
    const watcher = share('viewer', ['view']);
    expect(keyIntent(watcher, f2)).toEqual({ kind: 'none' });
    expect(keyIntent(watcher, ch('y'), focused)).toEqual({ kind: 'watch_only' });
  });

  it('a yes/no question takes y and n from a viewer too (revoking a share from /shares)', () => {
    const confirming = { dialogFocused: false, inputEmpty: true, confirming: true };
    expect(keyIntent(viewer, ch('y'), confirming)).toEqual({ kind: 'confirm', yes: true });
    expect(keyIntent(viewer, ch('n'), confirming)).toEqual({ kind: 'confirm', yes: false });
  });
});
