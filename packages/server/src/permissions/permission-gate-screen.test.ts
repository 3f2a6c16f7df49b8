import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApprovalMode } from '@tandem/shared';
import { DEFAULT_READ_ONLY_COMMANDS } from '@tandem/coding-tools';
import { gateFolders, gateHarness } from '../../test/gate-harness.js';

/** The gate's screen (before the call is announced): blacklist, approval mode, read-only commands. */
const folders = gateFolders('tandem-gate-screen-');

async function setup(initial: ApprovalMode = 'ask') {
  let mode = initial;
  const harness = await gateHarness(folders, () => mode, { readOnlyCommands: DEFAULT_READ_ONLY_COMMANDS });
  return { ...harness, setMode: (m: ApprovalMode) => (mode = m) };
}

describe('permission gate screen', () => {
  it('a read-only command: safe, with the reason; the check then allows without a question', async () => {
    const { gate, call, events, decisions } = await setup();
    const c = call('run_command', { command: 'ls -la | wc -l' }, 'dangerous');
    expect(await gate.screen(c)).toMatchObject({ danger: 'safe', reason: 'read-only command: ls, wc' });
    expect(await gate.check(c, new AbortController().signal)).toMatchObject({ allow: true });
    expect(events).toEqual([]);
    expect(decisions).toEqual([{ callId: c.callId, decision: 'read_only', decidedBy: 'system', allowed: true, call: c }]);
  });

  it('a blacklisted command is refused by the screen as blocked, in every mode, before the mode', async () => {
    for (const m of ['ask', 'auto-edit', 'read-only'] as const) {
      const { gate, call, setMode } = await setup();
      setMode(m);
      const screen = await gate.screen(call('run_command', { command: 'ls; sudo ls' }, 'dangerous'));
      expect(screen.refusal).toMatchObject({ outcome: 'blocked', reason: expect.stringContaining('blacklist') });
    }
  });

  it('reads the mode at every call: read-only refuses, then ask lets the same call go on to a question', async () => {
    const { gate, call, setMode, decisions } = await setup('read-only');
    const first = call('write_file', { path: 'a.txt', content: 'x' }, 'medium', { paths: [path.join(folders.ws, 'a.txt')] });
    expect((await gate.screen(first)).refusal).toMatchObject({ outcome: 'refused', reason: expect.stringContaining('read-only mode') });
    expect(decisions.at(-1)).toMatchObject({ decision: 'mode_refused', allowed: false });
    setMode('auto-edit');
    const second = call('write_file', { path: 'a.txt', content: 'x' }, 'medium', { paths: [path.join(folders.ws, 'a.txt')] });
    expect(await gate.screen(second)).toMatchObject({ danger: 'medium', reason: 'auto-edit mode: a file edit inside the workspace' });
    setMode('ask');
    const third = call('write_file', { path: 'a.txt', content: 'x' }, 'medium', { paths: [path.join(folders.ws, 'a.txt')] });
    expect(await gate.screen(third)).toMatchObject({ danger: 'medium' });
  });

  it('check alone (no screen) decides the same way: read-only mode refuses with outcome refused', async () => {
    const { gate, call } = await setup('read-only');
    expect(await gate.check(call('run_command', { command: 'touch x' }, 'dangerous'), new AbortController().signal)).toMatchObject({
      allow: false,
      outcome: 'refused',
    });
    expect(await gate.check(call('run_command', { command: 'cat notes.txt' }, 'dangerous'), new AbortController().signal)).toMatchObject({ allow: true });
  });
});
