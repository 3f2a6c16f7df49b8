import type { SessionInfo } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { attachedController, DEMO_SESSION, fakeHost } from './tui-controller.test-helper.js';

// Agents through the controller, without a terminal: Ctrl-O and /workers, Tab after @.

const SESSION: SessionInfo = { ...DEMO_SESSION, floor: 'commander' };

function setup(role: 'driver' | 'viewer' = 'driver') {
  const sent: Array<{ command: string; payload: unknown }> = [];
  const host = fakeHost({
    request: (command, payload) => {
      // The custom commands are read on attach; this test is about what is sent.
      if (command !== 'commands:list') sent.push({ command, payload });
      return Promise.resolve({ mode: 'turn' } as never);
    },
  });
  const { tui, event, type, press } = attachedController(host, { session: SESSION, role });
  return { tui, sent, event, type, press };
}

describe('agents at the keyboard', () => {
  it('Ctrl-O and /workers show and hide anonymous workers in this terminal, for a viewer too', () => {
    for (const role of ['driver', 'viewer'] as const) {
      const { tui, event, press, type } = setup(role);
      event({ type: 'agent_started', agent: 'worker-1', taskId: 'k1', parent: 'commander', task: 'grep', visible: false });
      press('o', { ctrl: true });
      expect(tui.state.showHidden).toBe(true);
      expect(tui.currentFlash()).toBe('showing the steps of 1 anonymous worker · Ctrl-O hides them');
      press('o', { ctrl: true });
      expect(tui.state.showHidden).toBe(false);
      if (role === 'driver') {
        type('/workers');
        press('enter');
        expect(tui.state.showHidden).toBe(true);
      }
    }
  });

  it('Tab after @ completes an agent name seen in the session, then Enter sends it', () => {
    const { tui, sent, event, type, press } = setup();
    event({ type: 'agent_started', agent: 'reviewer', taskId: 'k1', parent: 'commander', task: 'review', visible: true });
    event({ type: 'floor_changed', agent: 'pair', by: 'commander' });
    type('@r');
    press('tab');
    expect(tui.editor.text).toBe('@reviewer ');
    type('again');
    press('enter');
    expect(sent).toEqual([{ command: 'session:send', payload: { sessionId: 's1', text: '@reviewer again' } }]);

    type('@');
    press('tab');
    expect(tui.editor.text).toBe('@');
    expect(tui.currentFlash()).toBe('@commander @pair @reviewer');
    type('x');
    press('tab');
    expect(tui.currentFlash()).toBe('no agent by that name; known: @commander @pair @reviewer');
  });

  it('a key clears the last flash, so the @-completion hint is not hidden behind it', () => {
    const { tui, event, type, press } = setup();
    event({ type: 'agent_started', agent: 'worker-1', taskId: 'k1', parent: 'commander', task: 'grep', visible: false });
    press('o', { ctrl: true });
    expect(tui.currentFlash()).toContain('anonymous worker');
    type('@');
    expect(tui.currentFlash()).toBeUndefined();
  });

  it('Tab without an @name types as before', () => {
    const { tui, type } = setup();
    type('a');
    tui.key({ name: 'tab', ch: '\t', ctrl: false, meta: false });
    expect(tui.editor.text).toBe('a  ');
  });
});
