import { describe, expect, it } from 'vitest';
import { keyIntent } from '../input/key-intent.js';
import { completeMention, mentionAt, mentionCandidates } from '../input/mention-complete.js';
import { emptyEditor, type LineEditor } from '../input/line-editor.js';
import { initialState } from '../state/reducer.js';
import type { AgentRun, PendingPermission, ViewState } from '../state/types.js';
import { formatPermission } from './format-permission.js';
import { formatHelp, formatStatus } from './format-status.js';

/** What a person sees: tags removed, escaped braces restored. */
function plain(text: string): string {
  return text
    .replace(/\{\/?[a-z-]+\}/g, '')
    .replace(/\{open\}/g, '{')
    .replace(/\{close\}/g, '}');
}

const base: ViewState = {
  ...initialState({ url: 'http://127.0.0.1:7777', me: 'ana', role: 'driver' }),
  connection: { status: 'connected' },
  session: { id: 'abcdef123456', title: 'demo', cwd: '/w', model: 'openai/a', mode: 'ask' },
  turn: { phase: 'running_tool', turnId: 't', tool: 'dispatch_to' },
  floor: 'commander',
};

const run = (over: Partial<AgentRun>): AgentRun => ({
  agent: 'reviewer',
  taskId: 'task-1',
  parent: 'commander',
  task: 'review',
  visible: true,
  turnId: 't',
  status: 'running',
  activity: 'thinking',
  iterations: 0,
  ...over,
});

describe('status line with agents', () => {
  it('shows each running worker: what it does, its iterations and tokens; finished ones drop out', () => {
    const state: ViewState = {
      ...base,
      agents: [
        run({ agent: 'reviewer', taskId: 'task-1', activity: 'tool', tool: 'read_file', iterations: 2, usage: { inputTokens: 1200, outputTokens: 34 } }),
        run({ agent: 'worker-1', taskId: 'task-2', visible: false, activity: 'writing' }),
        run({ agent: 'tester', taskId: 'task-3', status: 'done' }),
      ],
    };
    const line = plain(formatStatus(state, 0));
    expect(line).toContain('2 workers: reviewer read_file it 2 1.2k · worker-1 writing');
    expect(line).not.toContain('tester');
    expect(line.indexOf('running dispatch_to')).toBeLessThan(line.indexOf('2 workers'));
    // Narrow: the workers shrink to their count before they go.
    const narrow = plain(formatStatus(state, 0, { width: 80 }));
    expect(narrow).toContain('2 workers');
    expect(narrow).not.toContain('read_file');
  });

  it('shows the floor holder: dim for the commander, bright for an agent, kept on a narrow line', () => {
    expect(plain(formatStatus(base, 0))).toContain('│ floor commander');
    const handed = { ...base, floor: 'pair', turn: { phase: 'idle' as const } };
    expect(formatStatus(handed, 0)).toContain('{magenta-fg}floor {bold}pair{/bold}{/magenta-fg}');
    expect(plain(formatStatus(handed, 0, { width: 60 }))).toContain('floor pair');
    expect(plain(formatStatus({ ...base, floor: null }, 0))).not.toContain('floor');
    // The usual `floor commander` is the first to go when the line is too long, before tokens and who else is attached.
    const crowded: ViewState = {
      ...base,
      turn: { phase: 'idle' },
      presence: [
        { id: '1', name: 'ana', role: 'driver' },
        { id: '2', name: 'bo', role: 'viewer' },
      ],
      lastUsage: { inputTokens: 11_924, outputTokens: 19 },
    };
    const full = plain(formatStatus(crowded, 0));
    const tight = plain(formatStatus(crowded, 0, { width: full.length }));
    expect(tight).not.toContain('floor commander');
    expect(tight).toContain('in 11.9k out 19');
    expect(tight).toContain('with bo (viewer)');
  });

  it('offers Ctrl-O once anonymous workers exist, and the names while an @name is typed', () => {
    expect(plain(formatHelp(base))).not.toContain('Ctrl-O');
    const hidden = { ...base, agents: [run({ agent: 'worker-1', visible: false })] };
    expect(plain(formatHelp(hidden))).toContain('Ctrl-O show workers');
    expect(plain(formatHelp({ ...hidden, showHidden: true }))).toContain('Ctrl-O hide workers');
    expect(plain(formatHelp({ ...hidden, role: 'viewer' }))).toContain('Ctrl-O show workers');
    expect(plain(formatHelp(base, { mentions: ['commander', 'reviewer'] }))).toBe(' Tab completes: @commander @reviewer');
  });
});

describe('permission dialog with agents', () => {
  const request: PendingPermission = {
    seq: 4,
    requestId: 'r',
    callId: 'c',
    tool: 'run_command',
    args: { command: 'npm test' },
    danger: 'dangerous',
    expiresAt: '2026-01-01T00:01:00.000Z',
  };
  it('names the agent that asks', () => {
    const now = Date.parse('2026-01-01T00:00:00.000Z');
    const asked = formatPermission({ ...request, agent: 'tester', taskId: 'task-2' }, { role: 'driver', now, more: 0 }).map(plain);
    expect(asked[0]).toBe('Permission needed: run_command  [DANGEROUS]  asked by [tester]');
    expect(formatPermission(request, { role: 'driver', now, more: 0 }).map(plain)[0]).toBe('Permission needed: run_command  [DANGEROUS]');
  });
});

describe('@ completion and the Ctrl-O key', () => {
  const at = (text: string, cursor = text.length): LineEditor => ({ ...emptyEditor(), text, cursor });
  const names = ['commander', 'pair', 'reviewer', 'review-bot'];

  it('finds the @word at the cursor, at the start or after a space only', () => {
    expect(mentionAt(at('@rev'))).toEqual({ start: 0, prefix: 'rev' });
    expect(mentionAt(at('ask @p'))).toEqual({ start: 4, prefix: 'p' });
    expect(mentionAt(at('mail@host'))).toBeNull();
    expect(mentionAt(at('@reviewer look', 14))).toBeNull();
    expect(mentionCandidates(at('@REV'), names)).toEqual(['reviewer', 'review-bot']);
  });

  it('completes one match with a space, several to what they share', () => {
    expect(completeMention(at('@p'), names).editor).toMatchObject({ text: '@pair ', cursor: 6 });
    expect(completeMention(at('@co please', 3), names).editor).toMatchObject({ text: '@commander please', cursor: 11 });
    const several = completeMention(at('@r'), names);
    expect(several.candidates).toEqual(['reviewer', 'review-bot']);
    expect(several.editor).toMatchObject({ text: '@review', cursor: 7 });
    expect(completeMention(at('@zed'), names)).toMatchObject({ editor: { text: '@zed' }, candidates: [] });
  });

  it('Tab completes only while an @name is typed; Ctrl-O works for drivers and viewers', () => {
    const state = { ...base, turn: { phase: 'idle' as const } };
    const tab = { name: 'tab', ch: '\t', ctrl: false, meta: false };
    expect(keyIntent(state, tab, { dialogFocused: false, inputEmpty: false, confirming: false, mention: true })).toEqual({ kind: 'complete_mention' });
    expect(keyIntent(state, tab, { dialogFocused: false, inputEmpty: false, confirming: false, mention: false })).toEqual({ kind: 'edit' });
    const ctrlO = { name: 'o', ctrl: true, meta: false };
    expect(keyIntent(state, ctrlO)).toEqual({ kind: 'toggle_hidden' });
    expect(keyIntent({ ...state, role: 'viewer' }, ctrlO)).toEqual({ kind: 'toggle_hidden' });
  });
});
