import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { GateCall } from '@tandem/core';
import { checkCommandBlacklist } from '@tandem/coding-tools';
import type { ApprovalMode, EventBody } from '@tandem/shared';
import { FakeClock } from '@tandem/testkit';
import { afterEach, beforeEach } from 'vitest';
import { declaredOf } from '../src/permissions/declared-call.test-helper.js';
import { PermissionBroker } from '../src/permissions/permission-broker.js';
import { createPermissionGate, type GateDecision, type PermissionGateOptions } from '../src/permissions/permission-gate.js';
import { PermissionStore } from '../src/permissions/permission-store.js';
import { SessionRuleSet } from '../src/permissions/session-rules.js';

/** A fresh temporary folder for each test, holding `project` (the workspace, by its real path) and `data`; removed after the test. */
export function gateFolders(prefix: string): { readonly root: string; readonly ws: string } {
  const folders = { root: '', ws: '' };
  beforeEach(async () => {
    folders.root = await mkdtemp(path.join(os.tmpdir(), prefix));
    const ws = path.join(folders.root, 'project');
    await mkdir(ws);
    folders.ws = await realpath(ws);
  });
  afterEach(async () => {
    await rm(folders.root, { recursive: true, force: true });
  });
  return folders;
}

/**
 * The permission gate of a workspace as a session builds it (store in `<root>/data`, a broker on
 * a fake clock, the real blacklist, no session rules), in the approval mode `mode()` says, with
 * what it announces (`events`) and reports for the audit (`decisions`). `call` makes a call to a
 * tool as the engine hands it over (numbered c1, c2 …, with what a built-in tool declares).
 */
export async function gateHarness(
  folders: { root: string; ws: string },
  mode: () => ApprovalMode,
  extra: Pick<PermissionGateOptions, 'readOnlyCommands'> = {},
) {
  const events: EventBody[] = [];
  const decisions: GateDecision[] = [];
  const clock = new FakeClock();
  const store = await PermissionStore.open({ dataDir: path.join(folders.root, 'data'), clock });
  const broker = new PermissionBroker({ emit: (e) => events.push(e), clock });
  const gate = createPermissionGate({
    broker,
    store,
    workspace: folders.ws,
    sessionRules: new SessionRuleSet(),
    blacklist: (c) => checkCommandBlacklist(c),
    mode,
    ...extra,
    onDecision: (d) => decisions.push(d),
  });
  let n = 0;
  const call = (tool: string, args: unknown, danger: GateCall['danger'] = 'dangerous', more: Partial<GateCall> = {}): GateCall => ({
    turnId: 't',
    callId: `c${++n}`,
    tool,
    args,
    danger,
    readOnly: false,
    ...declaredOf(tool, args),
    ...more,
  });
  return { gate, events, decisions, call, store, broker };
}
