import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '@tandem/testkit';
import { AuditLog } from './audit-log.js';
import { ENDED_WITH_TURN, SessionAuditRecorder } from './session-audit-recorder.js';

let dir: TempDir;
let log: AuditLog;
beforeEach(async () => {
  dir = await makeTempDir('tandem-recorder-');
  log = await AuditLog.open({ dataDir: dir.path, env: {} });
});
afterEach(async () => {
  await log.close();
  await dir.cleanup();
});

const call = (callId: string, turnId = 't1', ts = '2026-01-01T00:00:00.000Z') => ({
  type: 'tool_call',
  turnId,
  callId,
  tool: 'run_command',
  args: { command: 'sleep 9' },
  danger: 'dangerous',
  ts,
});

describe('SessionAuditRecorder', () => {
  it('records the outcome a tool_result carries, or ok / error from isError', () => {
    const rec = new SessionAuditRecorder(log, 's1');
    rec.observe(call('a'));
    rec.observe({
      type: 'tool_result',
      turnId: 't1',
      callId: 'a',
      tool: 'run_command',
      isError: true,
      output: 'refused by the command blacklist',
      durationMs: 0,
      outcome: 'blocked',
      decision: 'blacklisted',
      decidedBy: 'system',
    });
    rec.observe(call('b'));
    rec.observe({ type: 'tool_result', turnId: 't1', callId: 'b', tool: 'run_command', isError: false, output: 'fine', durationMs: 3 });
    rec.observe(call('c'));
    rec.observe({
      type: 'tool_result',
      turnId: 't1',
      callId: 'c',
      tool: 'run_command',
      isError: true,
      output: 'exit 1',
      durationMs: 3,
      outcome: 'not-an-outcome',
    });
    expect(log.query({}).map((r) => [r.callId, r.decision, r.outcome])).toEqual([
      ['a', 'blacklisted', 'blocked'],
      ['b', 'not_checked', 'ok'],
      ['c', 'not_checked', 'error'],
    ]);
  });

  it('records a call still open when its turn ends as cancelled, exactly once, with the decision and the time it ran', () => {
    const rec = new SessionAuditRecorder(log, 's1');
    rec.observe(call('a', 't1', '2026-01-01T00:00:00.000Z'));
    rec.observe(call('other', 't0'));
    // The person's answer, as the events say it: the question about call a, then its answer.
    rec.observe({ type: 'permission_request', requestId: 'r1', callId: 'a', tool: 'run_command', args: {}, danger: 'dangerous', expiresAt: 'x' });
    rec.observe({ type: 'permission_resolved', requestId: 'r1', decision: 'allow_once', by: 'ana', reason: 'answered' });
    rec.observe({ type: 'turn_cancelled', turnId: 't1', note: 'cancelled', ts: '2026-01-01T00:00:02.500Z' });
    rec.observe({ type: 'turn_done', turnId: 't1', iterations: 1, ts: '2026-01-01T00:00:03.000Z' });
    const records = log.query({});
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      callId: 'a',
      turnId: 't1',
      decision: 'allow_once',
      decidedBy: 'ana',
      outcome: 'cancelled',
      isError: true,
      durationMs: 2500,
      resultSummary: expect.stringContaining(ENDED_WITH_TURN),
    });
    rec.observe({ type: 'turn_interrupted', turnId: 't0', reason: 'server restarted' });
    expect(log.query({}).map((r) => [r.callId, r.outcome])).toEqual([
      ['a', 'cancelled'],
      ['other', 'cancelled'],
    ]);
  });
});
