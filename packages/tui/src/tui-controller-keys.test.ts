import { describe, expect, it } from 'vitest';
import { QUIT_WINDOW_MS } from './tui-controller.js';
import { attachedController, fakeHost } from './tui-controller.test-helper.js';

// Esc, Ctrl-C in each state, and pastes, without a terminal: the host records requests and
// quits and owns the clock, so the 2 s window of "Ctrl-C again to quit" is tested by moving time.

function setup(role: 'driver' | 'viewer' = 'driver') {
  const sent: Array<{ command: string; payload: unknown }> = [];
  const quits: number[] = [];
  const clock = { now: 1_000_000 };
  const host = fakeHost({
    request: (command, payload) => {
      // The custom commands are read on attach; this test is about what keys send.
      if (command !== 'commands:list') sent.push({ command, payload });
      return Promise.resolve({ mode: 'turn' } as never);
    },
    now: () => clock.now,
    quit: (code) => void quits.push(code),
  });
  const { tui, event, type, press } = attachedController(host, { role });
  tui.goLive();
  const ctrlC = () => press('c', { ctrl: true });
  const commands = () => sent.map((entry) => entry.command);
  return { tui, sent, quits, clock, event, type, press, ctrlC, commands };
}

describe('Ctrl-C', () => {
  it('clears a non-empty input line and keeps the text in the history', () => {
    const { tui, type, press, ctrlC, quits, commands } = setup();
    type('half a thought');
    ctrlC();
    expect(tui.editor.text).toBe('');
    expect(quits).toEqual([]);
    expect(commands()).toEqual([]);
    press('up');
    expect(tui.editor.text).toBe('half a thought');
  });

  it('on an empty idle line asks for a second press, and quits on one within 2 s', () => {
    const { tui, ctrlC, quits, clock } = setup();
    ctrlC();
    expect(quits).toEqual([]);
    expect(tui.currentFlash()).toBe('Ctrl-C again to quit');
    clock.now += QUIT_WINDOW_MS - 1;
    ctrlC();
    expect(quits).toEqual([0]);
  });

  it('a second press after 2 s, or after another key, only asks again', () => {
    const { tui, ctrlC, quits, clock, press } = setup();
    ctrlC();
    clock.now += QUIT_WINDOW_MS;
    expect(tui.currentFlash()).toBeUndefined();
    ctrlC();
    expect(quits).toEqual([]);
    expect(tui.currentFlash()).toBe('Ctrl-C again to quit');
    press('left');
    ctrlC();
    expect(quits).toEqual([]);
    ctrlC();
    expect(quits).toEqual([0]);
  });

  it('cancels a running turn (and does not quit)', () => {
    const { event, ctrlC, quits, commands } = setup();
    event({ type: 'turn_started', turnId: 't1', model: 'openai/gpt-4.1-mini' });
    ctrlC();
    ctrlC();
    expect(commands()).toEqual(['session:cancel', 'session:cancel']);
    expect(quits).toEqual([]);
  });

  it('a viewer quits with two presses too', () => {
    const { ctrlC, quits } = setup('viewer');
    ctrlC();
    expect(quits).toEqual([]);
    ctrlC();
    expect(quits).toEqual([0]);
  });
});

describe('Esc', () => {
  it('cancels a running turn when nothing else has the keys', () => {
    const { event, press, commands } = setup();
    press('escape');
    expect(commands()).toEqual([]);
    event({ type: 'turn_started', turnId: 't1', model: 'openai/gpt-4.1-mini' });
    press('escape');
    expect(commands()).toEqual(['session:cancel']);
  });

  it('closes an open panel first, without cancelling', () => {
    const { tui, event, press, commands } = setup();
    event({ type: 'turn_started', turnId: 't1', model: 'openai/gpt-4.1-mini' });
    press('f5');
    expect(tui.panels.panel?.kind).toBe('audit');
    press('escape');
    expect(tui.panels.panel).toBeNull();
    expect(commands().filter((c) => c === 'session:cancel')).toEqual([]);
  });
});

describe('paste', () => {
  it('goes into the input line with its newlines and never sends', () => {
    const { tui, commands } = setup();
    tui.paste('first line\rsecond line\r');
    expect(tui.editor.text).toBe('first line\nsecond line\n');
    expect(commands()).toEqual([]);
  });

  it('a large paste shows folded and Enter sends the whole text as one message', () => {
    const { tui, type, press, sent } = setup();
    const trace = Array.from({ length: 120 }, (_, i) => `line ${i}`).join('\r');
    type('look: ');
    tui.paste(trace);
    expect(tui.editor.text).toBe('look: [pasted 120 lines]');
    press('enter');
    expect(sent).toEqual([{ command: 'session:send', payload: { sessionId: 's1', text: `look: ${trace.replace(/\r/g, '\n')}` } }]);
  });

  it('a viewer is told it cannot type; nothing is inserted', () => {
    const { tui } = setup('viewer');
    tui.paste('hello');
    expect(tui.editor.text).toBe('');
    expect(tui.currentFlash()).toContain('watch-only');
  });
});
