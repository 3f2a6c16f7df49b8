import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { checkCommandBlacklist, type GateCall } from '@tandem/core';
import type { EventBody } from '@tandem/shared';
import { FakeClock, until } from '@tandem/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PermissionBroker } from './permission-broker.js';
import { createPermissionGate, type GateDecision } from './permission-gate.js';
import { PermissionStore } from './permission-store.js';
import { SessionRuleSet } from './session-rules.js';
import { workspaceKey } from './workspace-key.js';
import { declaredOf } from './declared-call.test-helper.js';

/** `full-auto` (a headless run's --approval-mode): no question, but everything before the question still decides. */
let root: string;
let ws: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'tandem-gate-full-auto-'));
  ws = path.join(root, 'project');
  await mkdir(ws);
  ws = await realpath(ws);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function setup() {
  const events: EventBody[] = [];
  const decisions: GateDecision[] = [];
  const clock = new FakeClock();
  const store = await PermissionStore.open({ dataDir: path.join(root, 'data'), clock });
  const broker = new PermissionBroker({ emit: (e) => events.push(e), clock });
  const gate = createPermissionGate({
    broker,
    store,
    workspace: ws,
    sessionRules: new SessionRuleSet(),
    blacklist: (c) => checkCommandBlacklist(c),
    mode: () => 'full-auto',
    onDecision: (d) => decisions.push(d),
  });
  let n = 0;
  const call = (tool: string, args: unknown, danger: GateCall['danger'] = 'dangerous'): GateCall => ({
    turnId: 't',
    callId: `c${++n}`,
    tool,
    args,
    danger,
    readOnly: false,
    ...declaredOf(tool, args),
  });
  const signal = new AbortController().signal;
  return { gate, events, decisions, call, store, broker, signal };
}

describe('permission gate in full-auto mode', () => {
  it('runs a dangerous command without a question, and reports the decision for the audit', async () => {
    const { gate, call, events, decisions, signal } = await setup();
    const c = call('run_command', { command: 'rm -rf build && make' });
    expect(await gate.screen(c)).toMatchObject({ danger: 'dangerous', reason: 'full-auto mode: runs without asking' });
    expect(await gate.check(c, signal)).toMatchObject({ allow: true });
    expect(events).toEqual([]);
    expect(decisions).toEqual([{ callId: c.callId, decision: 'full_auto', decidedBy: 'system', allowed: true, call: c }]);
  });

  it('still refuses what the blacklist blocks', async () => {
    const { gate, call, signal, events } = await setup();
    expect(await gate.check(call('run_command', { command: 'sudo rm -rf /' }), signal)).toMatchObject({ allow: false, outcome: 'blocked' });
    expect(events).toEqual([]);
  });

  it('a stored deny still denies', async () => {
    const { gate, call, signal, store } = await setup();
    await store.add(await workspaceKey(ws), { tool: 'run_command', pattern: 'git push', match: 'prefix', effect: 'deny', by: 'ana' });
    expect(await gate.check(call('run_command', { command: 'git push origin main' }), signal)).toMatchObject({ allow: false, outcome: 'denied' });
  });

  it('a tool that always asks still asks (configure_provider)', async () => {
    const { gate, call, signal, broker } = await setup();
    const verdict = gate.check(call('configure_provider', { provider: 'openai', apiKey: 'sk-x' }), signal);
    await until(() => broker.pending().length === 1, 'configure_provider to ask');
    broker.respond(broker.pending()[0]!.requestId, 'deny_once', undefined, 'ana');
    expect(await verdict).toMatchObject({ allow: false, outcome: 'denied' });
  });
});
