import { until } from '@tandem/testkit';
import { describe, expect, it } from 'vitest';
import { workspaceKey } from './workspace-key.js';
import { gateFolders, gateHarness } from '../../test/gate-harness.js';

/** `full-auto` (a headless run's --approval-mode): no question, but everything before the question still decides. */
const folders = gateFolders('tandem-gate-full-auto-');

async function setup() {
  const harness = await gateHarness(folders, () => 'full-auto');
  return { ...harness, signal: new AbortController().signal };
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
    await store.add(await workspaceKey(folders.ws), { tool: 'run_command', pattern: 'git push', match: 'prefix', effect: 'deny', by: 'ana' });
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
