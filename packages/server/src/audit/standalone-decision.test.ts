import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '@tandem/testkit';
import { AuditLog } from './audit-log.js';
import { SessionAuditRecorder } from './session-audit-recorder.js';

let dir: TempDir;
let log: AuditLog;
beforeEach(async () => {
  dir = await makeTempDir('tandem-standalone-');
  log = await AuditLog.open({ dataDir: dir.path, env: { MCP_TOKEN: 'tok-secret-1234' } });
});
afterEach(async () => {
  await log.close();
  await dir.cleanup();
});

const launch = (callId: string) => ({
  turnId: 't1',
  callId,
  tool: 'mcp_server',
  args: { name: 'proj', command: 'node', args: ['srv.js', 'tok-secret-1234'], env: ['MCP_TOKEN'] },
  danger: 'dangerous' as const,
  readOnly: false,
});

describe('MCP server launch decisions in the audit log', () => {
  it('records each decision at once (no tool_call follows), with who, what, the outcome, and secrets masked', () => {
    const rec = new SessionAuditRecorder(log, 's1');
    rec.noteDecision({ callId: 'm1', decision: 'allow_once', decidedBy: 'alice', allowed: true, call: launch('m1') });
    rec.noteDecision({ callId: 'm2', decision: 'timeout', decidedBy: 'system', allowed: false, call: launch('m2') });
    rec.noteDecision({ callId: 'm3', decision: 'deny_once', decidedBy: 'bob', allowed: false, call: launch('m3') });
    const records = log.query({ sessionId: 's1' });
    expect(records.map((r) => [r.callId, r.decision, r.decidedBy, r.outcome, r.isError])).toEqual([
      ['m1', 'allow_once', 'alice', 'ok', false],
      ['m2', 'timeout', 'system', 'timeout', true],
      ['m3', 'deny_once', 'bob', 'denied', true],
    ]);
    expect(records[0]).toMatchObject({
      tool: 'mcp_server',
      turnId: 't1',
      resultSummary: expect.stringContaining('approved the launch of project MCP server "proj"'),
    });
    expect(JSON.stringify(records)).not.toContain('tok-secret-1234');
  });

  it('a decision about an ordinary tool call makes no record of its own: its tool_result carries it', () => {
    const rec = new SessionAuditRecorder(log, 's1');
    rec.noteDecision({ callId: 'c1', decision: 'allow_once', decidedBy: 'alice', allowed: true, call: { ...launch('c1'), tool: 'run_command' } });
    expect(log.query({ sessionId: 's1' })).toEqual([]);
    rec.observe({ type: 'tool_call', turnId: 't1', callId: 'c1', tool: 'run_command', args: { command: 'ls' }, danger: 'dangerous' });
    rec.observe({
      type: 'tool_result',
      turnId: 't1',
      callId: 'c1',
      tool: 'run_command',
      isError: false,
      output: 'a',
      durationMs: 1,
      decision: 'allow_once',
      decidedBy: 'alice',
    });
    expect(log.query({ sessionId: 's1' })).toEqual([expect.objectContaining({ callId: 'c1', decision: 'allow_once', decidedBy: 'alice' })]);
  });
});
