import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventBody } from '@tandem/shared';
import type { GateCall, GateVerdict, ToolGate } from '@tandem/core';
import { checkCommandBlacklist } from '@tandem/coding-tools';
import { FakeClock, until } from '@tandem/testkit';
import { composeGates } from './compose-gates.js';
import { PermissionBroker } from './permission-broker.js';
import { createPermissionGate, type BlacklistCheck, type GateDecision } from './permission-gate.js';
import { PermissionStore } from './permission-store.js';
import { SessionRuleSet } from './session-rules.js';
import { workspaceKey } from './workspace-key.js';
import { declaredOf } from './declared-call.test-helper.js';

/** The real blacklist (core), as the integrator passes it. */
const blacklist: BlacklistCheck = (command) => checkCommandBlacklist(command);

let root: string;
let dataDir: string;
let ws: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'tandem-perm-gate-'));
  dataDir = path.join(root, 'data');
  ws = path.join(root, 'project');
  await mkdir(ws);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function setup() {
  const clock = new FakeClock();
  const events: EventBody[] = [];
  const decisions: GateDecision[] = [];
  const store = await PermissionStore.open({ dataDir, clock });
  let n = 0;
  const broker = new PermissionBroker({ emit: (e) => events.push(e), clock, newId: () => `req-${++n}` });
  const sessionRules = new SessionRuleSet();
  const gate = createPermissionGate({ broker, store, workspace: ws, sessionRules, blacklist, onDecision: (d) => decisions.push(d) });
  const signal = new AbortController().signal;
  let callN = 0;
  const check = (tool: string, args: unknown, danger: GateCall['danger'] = 'dangerous') =>
    gate.check({ turnId: 't', callId: `c${++callN}`, tool, args, danger, readOnly: danger === 'safe', ...declaredOf(tool, args) }, signal);
  /** Runs a call that must ask, answers it, and returns the verdict. */
  const answered = async (tool: string, args: unknown, decision: Parameters<PermissionBroker['respond']>[1], scope?: string, by = 'ana') => {
    const before = broker.pending().length;
    const verdict = check(tool, args);
    await until(() => broker.pending().length > before, `${tool} to ask`);
    const request = broker.pending().at(-1);
    if (!request) throw new Error(`${tool} did not ask`);
    expect(broker.respond(request.requestId, decision, scope, by)).toEqual({ ok: true });
    return verdict;
  };
  const asks = async (tool: string, args: unknown) => {
    const before = broker.pending().length;
    let done = false;
    void check(tool, args).then(() => (done = true));
    await until(() => done || broker.pending().length > before, `${tool} to ask or decide`);
    return broker.pending().length > before;
  };
  return { clock, events, decisions, store, broker, sessionRules, gate, check, answered, asks };
}

describe('createPermissionGate', () => {
  it('runs a safe tool without asking', async () => {
    const { check, events, decisions } = await setup();
    expect(await check('read_file', { path: 'a.txt' }, 'safe')).toMatchObject({ allow: true });
    expect(events).toEqual([]);
    expect(decisions).toEqual([
      {
        callId: 'c1',
        decision: 'safe',
        decidedBy: 'system',
        allowed: true,
        call: expect.objectContaining({ callId: 'c1', tool: 'read_file', args: { path: 'a.txt' } }),
      },
    ]);
  });

  it('checks the blacklist before any rule: even a stored allow cannot unlock it', async () => {
    const { store, check, events, decisions } = await setup();
    await store.add(await workspaceKey(ws), { tool: 'run_command', match: 'tool', effect: 'allow', by: 'ana' });
    const verdict = await check('run_command', { command: 'ls && sudo rm -rf /var' });
    expect(verdict).toMatchObject({ allow: false, reason: expect.stringContaining('privilege_escalation') });
    expect(events).toEqual([]);
    expect(decisions[0]).toMatchObject({ decision: 'blacklisted', allowed: false });
    expect(await check('run_command', { command: 'ls' })).toMatchObject({ allow: true });
  });

  it('asks, and allow_once allows this call only', async () => {
    const { answered, asks, events } = await setup();
    expect(await answered('run_command', { command: 'npm test' }, 'allow_once')).toMatchObject({ allow: true });
    expect(events[0]).toMatchObject({ type: 'permission_request', preview: 'npm test', scopes: ['npm test', 'npm test *', 'npm *'] });
    expect(await asks('run_command', { command: 'npm test' })).toBe(true);
  });

  it('allow_session covers the rest of the session, in memory only', async () => {
    const { answered, check, sessionRules, store, events } = await setup();
    await answered('write_file', { path: 'src/a.ts', content: '' }, 'allow_session', 'src/');
    expect(await check('write_file', { path: 'src/b/c.ts', content: '' })).toMatchObject({ allow: true });
    expect(sessionRules.list()).toEqual([expect.objectContaining({ match: 'prefix', by: 'ana' })]);
    expect(await store.list()).toEqual([]);
    expect(events.filter((e) => e.type === 'permission_request')).toHaveLength(1);
  });

  it('allow_forever persists for the workspace and survives a restart of the store', async () => {
    const { answered, check, decisions } = await setup();
    await answered('run_command', { command: 'git status' }, 'allow_forever', 'git *', 'bo');
    expect(await check('run_command', { command: 'git log -3' })).toMatchObject({ allow: true });
    expect(decisions.at(-1)).toMatchObject({ decision: 'stored_rule', decidedBy: 'bo' });

    const restarted = await setup();
    expect(await restarted.check('run_command', { command: 'git diff' })).toMatchObject({ allow: true });
    expect(await restarted.asks('run_command', { command: 'gitx' })).toBe(true);
  });

  it('deny_once refuses this call and asks again next time', async () => {
    const { answered, asks } = await setup();
    const verdict = await answered('delete_file', { path: 'x' }, 'deny_once');
    expect(verdict).toMatchObject({ allow: false, reason: expect.stringContaining('denied by ana (deny_once)') });
    expect(await asks('delete_file', { path: 'x' })).toBe(true);
  });

  it('deny_forever refuses from then on without asking, and says how to undo it', async () => {
    const { answered, check, events } = await setup();
    await answered('run_command', { command: 'curl x.org' }, 'deny_forever', 'curl *');
    const verdict = await check('run_command', { command: 'curl -s y.org' });
    expect(verdict).toMatchObject({ allow: false, reason: expect.stringMatching(/deny.*curl.*tandem permissions revoke/) });
    expect(events.filter((e) => e.type === 'permission_request')).toHaveLength(1);
  });

  it('lets a stored deny win over a session allow', async () => {
    const { answered, check, store } = await setup();
    await answered('run_command', { command: 'git push' }, 'allow_session', 'git *');
    await store.add(await workspaceKey(ws), { tool: 'run_command', match: 'exact', pattern: 'git push --force', effect: 'deny', by: 'bo' });
    expect(await check('run_command', { command: 'git push --force' })).toMatchObject({ allow: false });
    expect(await check('run_command', { command: 'git push' })).toMatchObject({ allow: true });
  });

  it('denies automatically after 60 s and stops the turn', async () => {
    const { check, clock, events, decisions, broker } = await setup();
    let verdict: GateVerdict | undefined;
    void check('run_command', { command: 'make deploy' }).then((v) => (verdict = v));
    await until(() => broker.pending().length === 1, 'the request');
    await clock.advance(59_000);
    expect(verdict).toBeUndefined();
    await clock.advance(1_000);
    await until(() => verdict !== undefined, 'the verdict');
    expect(verdict).toEqual({
      allow: false,
      reason: 'permission request timed out after 60 s (automatic deny)',
      stopTurn: 'permission_timeout',
      outcome: 'timeout',
      decision: 'timeout',
      decidedBy: 'system',
    });
    expect(events.at(-1)).toMatchObject({ type: 'permission_resolved', decision: 'deny_once', by: 'system', reason: 'timeout' });
    expect(decisions.at(-1)).toMatchObject({ decision: 'timeout', allowed: false });
  });

  it('refuses without a decision when the turn is cancelled while it waits', async () => {
    const { gate, broker, events, decisions } = await setup();
    const ac = new AbortController();
    const verdict = gate.check(
      { turnId: 't', callId: 'z', tool: 'delete_file', args: { path: 'x' }, danger: 'dangerous', readOnly: false, ...declaredOf('delete_file', { path: 'x' }) },
      ac.signal,
    );
    await until(() => broker.pending().length === 1, 'the request');
    ac.abort();
    expect(await verdict).toMatchObject({ allow: false, reason: 'the turn was cancelled while waiting for permission', outcome: 'cancelled' });
    expect(events.at(-1)).toMatchObject({ type: 'permission_resolved', decision: 'deny_once', by: 'system', reason: 'expired' });
    expect(decisions.at(-1)).toMatchObject({ callId: 'z', decision: 'cancelled', allowed: false });
  });

  it('never runs the next step after a refusal', async () => {
    const { gate } = await setup();
    let reached = 0;
    const counting: ToolGate = { check: async () => (reached++, { allow: true }) };
    const both = composeGates(gate, counting);
    const signal = new AbortController().signal;
    await both.check(
      {
        turnId: 't',
        callId: 'x',
        tool: 'run_command',
        args: { command: 'sudo ls' },
        danger: 'dangerous',
        readOnly: false,
        ...declaredOf('run_command', { command: 'sudo ls' }),
      },
      signal,
    );
    expect(reached).toBe(0);
    await both.check({ turnId: 't', callId: 'y', tool: 'read_file', args: { path: 'a' }, danger: 'safe', readOnly: true }, signal);
    expect(reached).toBe(1);
  });
});
