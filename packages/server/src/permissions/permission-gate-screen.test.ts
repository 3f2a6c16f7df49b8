import { mkdtemp, mkdir, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalMode, EventBody } from '@tandem/shared';
import { DEFAULT_READ_ONLY_COMMANDS, checkCommandBlacklist, type GateCall } from '@tandem/core';
import { FakeClock } from '@tandem/testkit';
import { PermissionBroker } from './permission-broker.js';
import { createPermissionGate, type GateDecision } from './permission-gate.js';
import { PermissionStore } from './permission-store.js';
import { SessionRuleSet } from './session-rules.js';
import { declaredOf } from './declared-call.test-helper.js';

/** The gate's screen (before the call is announced): blacklist, approval mode, read-only commands. */
let root: string;
let ws: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'tandem-gate-screen-'));
  ws = path.join(root, 'project');
  await mkdir(ws);
  ws = await realpath(ws);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function setup(initial: ApprovalMode = 'ask') {
  let mode = initial;
  const events: EventBody[] = [];
  const decisions: GateDecision[] = [];
  const store = await PermissionStore.open({ dataDir: path.join(root, 'data'), clock: new FakeClock() });
  const broker = new PermissionBroker({ emit: (e) => events.push(e), clock: new FakeClock() });
  const gate = createPermissionGate({
    broker,
    store,
    workspace: ws,
    sessionRules: new SessionRuleSet(),
    blacklist: (c) => checkCommandBlacklist(c),
    mode: () => mode,
    readOnlyCommands: DEFAULT_READ_ONLY_COMMANDS,
    onDecision: (d) => decisions.push(d),
  });
  let n = 0;
  const call = (tool: string, args: unknown, danger: GateCall['danger'], extra: Partial<GateCall> = {}): GateCall => ({
    turnId: 't',
    callId: `c${++n}`,
    tool,
    args,
    danger,
    readOnly: false,
    ...declaredOf(tool, args),
    ...extra,
  });
  return { gate, events, decisions, call, setMode: (m: ApprovalMode) => (mode = m), broker };
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
    const first = call('write_file', { path: 'a.txt', content: 'x' }, 'medium', { paths: [path.join(ws, 'a.txt')] });
    expect((await gate.screen(first)).refusal).toMatchObject({ outcome: 'refused', reason: expect.stringContaining('read-only mode') });
    expect(decisions.at(-1)).toMatchObject({ decision: 'mode_refused', allowed: false });
    setMode('auto-edit');
    const second = call('write_file', { path: 'a.txt', content: 'x' }, 'medium', { paths: [path.join(ws, 'a.txt')] });
    expect(await gate.screen(second)).toMatchObject({ danger: 'medium', reason: 'auto-edit mode: a file edit inside the workspace' });
    setMode('ask');
    const third = call('write_file', { path: 'a.txt', content: 'x' }, 'medium', { paths: [path.join(ws, 'a.txt')] });
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
