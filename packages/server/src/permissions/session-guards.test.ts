import { mkdtemp, mkdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventBody } from '@tandem/shared';
import type { GateCall, GateVerdict } from '@tandem/core';
import { checkCommandBlacklist } from '@tandem/coding-tools';
import { AuditLog, AUDIT_FILE } from '../audit/audit-log.js';
import { FakeClock, until } from '@tandem/testkit';
import { PermissionStore } from './permission-store.js';
import { createSessionGuards } from './session-guards.js';
import { declaredOf } from './declared-call.test-helper.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'tandem-guards-'));
  await mkdir(path.join(root, 'ws'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Drives the guards the way the engine loop and the session do: tool_call, gate, tool_result. */
async function setup() {
  const clock = new FakeClock();
  const dataDir = path.join(root, 'data');
  const store = await PermissionStore.open({ dataDir, clock });
  const audit = await AuditLog.open({ dataDir, clock });
  const events: EventBody[] = [];
  const guards = createSessionGuards({
    sessionId: 's1',
    workspace: path.join(root, 'ws'),
    emit: (e) => {
      events.push(e);
      guards.recorder?.observe(e);
    },
    store,
    blacklist: checkCommandBlacklist,
    audit,
    clock,
    rateLimit: { maxCalls: 3 },
  });
  let n = 0;
  const run = async (tool: string, args: unknown, danger: GateCall['danger']): Promise<GateVerdict> => {
    const callId = `c${++n}`;
    guards.recorder?.observe({ type: 'tool_call', turnId: 't1', iteration: 1, callId, tool, args, danger });
    const verdict = await guards.gate.check(
      { turnId: 't1', callId, tool, args, danger, readOnly: danger === 'safe', ...declaredOf(tool, args) },
      new AbortController().signal,
    );
    const output = verdict.allow ? `ran ${tool}` : verdict.reason;
    // As the engine does: the verdict's decision travels on the tool_result.
    const decided = verdict.decision !== undefined ? { decision: verdict.decision, decidedBy: verdict.decidedBy } : {};
    guards.recorder?.observe({ type: 'tool_result', turnId: 't1', callId, tool, isError: !verdict.allow, output, durationMs: 5, ...decided });
    return verdict;
  };
  return { clock, store, audit, events, guards, run, dataDir };
}

describe('createSessionGuards', () => {
  it('asks, records who decided in the audit log, and rate-limits after permission', async () => {
    const { guards, run, events, audit, clock, dataDir } = await setup();

    const asked = run('run_command', { command: 'npm test' }, 'dangerous');
    await until(() => guards.broker.pending().length === 1, 'the question');
    guards.broker.respond(guards.broker.pending()[0]!.requestId, 'allow_session', 'npm *', 'ana');
    expect(await asked).toMatchObject({ allow: true });

    expect(await run('run_command', { command: 'sudo reboot' }, 'dangerous')).toMatchObject({ allow: false });
    expect(await run('read_file', { path: 'a' }, 'safe')).toMatchObject({ allow: true });
    expect(await run('run_command', { command: 'npm run lint' }, 'dangerous')).toMatchObject({ allow: true }); // session rule, 3rd admitted call

    let fourth: GateVerdict | undefined;
    void run('read_file', { path: 'b' }, 'safe').then((v) => (fourth = v));
    await until(() => events.some((e) => e.type === 'rate_limit_wait'), 'the rate-limit wait');
    expect(fourth).toBeUndefined();
    await clock.advance(60_000);
    await until(() => fourth !== undefined, 'the fourth call');

    expect(audit.query().map((r) => [r.tool, r.decision, r.decidedBy, r.isError])).toEqual([
      ['run_command', 'allow_session', 'ana', false],
      ['run_command', 'blacklisted', 'system', true],
      ['read_file', 'safe', 'system', false],
      ['run_command', 'session_rule', 'ana', false],
      ['read_file', 'safe', 'system', false],
    ]);
    await audit.close();
    expect((await readFile(path.join(dataDir, AUDIT_FILE), 'utf8')).trim().split('\n')).toHaveLength(5);
  });

  it('closes open questions when the session closes', async () => {
    const { guards, run, events } = await setup();
    const asked = run('delete_file', { path: 'x' }, 'dangerous');
    await until(() => guards.broker.pending().length === 1, 'the question');
    guards.close();
    expect(await asked).toMatchObject({ allow: false });
    expect(events.at(-1)).toMatchObject({ type: 'permission_resolved', reason: 'expired' });
  });
});
