import { execFileSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '@tandem/testkit';
import { AuditLog, AUDIT_FILE, type AuditEntry } from './audit-log.js';
import { SessionAuditRecorder } from './session-audit-recorder.js';

let dataDir: string;
const open: AuditLog[] = [];

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'tandem-audit-'));
});
afterEach(async () => {
  for (const log of open.splice(0)) await log.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function openLog(options: Partial<Parameters<typeof AuditLog.open>[0]> = {}) {
  const log = await AuditLog.open({ dataDir, ...options });
  open.push(log);
  return log;
}

function entry(n: number, extra: Partial<AuditEntry> = {}): AuditEntry {
  return {
    sessionId: n % 2 ? 'odd' : 'even',
    turnId: 't1',
    callId: `call-${n}`,
    tool: 'read_file',
    danger: 'safe',
    args: { path: `f${n}.txt` },
    output: `content ${n}`,
    isError: false,
    durationMs: 3,
    decision: 'safe',
    decidedBy: 'system',
    ...extra,
  };
}

const fileText = () => readFile(path.join(dataDir, AUDIT_FILE), 'utf8');

describe('AuditLog masking', () => {
  const name = 'TANDEM_TEST_SECRET_TOKEN';
  // Deliberately plain-looking (no token format, low entropy), so only the env-literal rule can catch it.
  const secret = `plain-words-${randomInt(100_000, 999_999)}-pony`;
  beforeEach(() => {
    process.env[name] = secret;
  });
  afterEach(() => {
    delete process.env[name];
  });

  it('never writes a secret env value, in arguments or in output a real command printed', async () => {
    const printed = execFileSync('sh', ['-c', `echo "token is $${name}"; echo done`], { encoding: 'utf8' });
    expect(printed).toContain(secret); // the real command did print it
    const log = await openLog();
    log.record(
      entry(1, {
        tool: 'run_command',
        danger: 'dangerous',
        args: { command: `curl -H "X-Key: ${secret}" https://x.test`, nested: [{ deep: `a"${secret}"\\b` }] },
        output: printed,
      }),
    );
    log.record(entry(2, { args: { note: 'gh token ghp_abcdefghijklmnopqrstuvwxyz0123456789' }, output: 'ok' }));
    await log.close();
    const text = await fileText();
    expect(text).not.toContain(secret);
    expect(text).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
    expect(text).toContain('curl -H'); // the rest of the argument is kept
    expect(JSON.stringify(log.query())).not.toContain(secret);
    const [first] = log.query({ sessionId: 'odd' });
    expect(first?.resultSummary).toMatch(/^token is \S*masked.* done$/);
  });

  it('caps a huge argument and summarizes the result in about 200 characters', async () => {
    const log = await openLog();
    const record = log.record(entry(1, { args: { content: 'x'.repeat(50_000) }, output: `\u001b[31mred\u001b[0m ${'y'.repeat(5000)}` }));
    expect(JSON.stringify(record.args).length).toBeLessThan(1200);
    expect(record.resultSummary.startsWith('red yyy')).toBe(true);
    expect(record.resultSummary.length).toBeLessThanOrEqual(201);
  });
});

describe('AuditLog file', () => {
  it('writes in small batches: within the flush interval, or at once when a batch fills', async () => {
    const clock = new FakeClock();
    const log = await openLog({ clock, flushIntervalMs: 100, flushBatch: 4 });
    log.record(entry(1));
    expect(await fileText()).toBe('');
    await clock.advance(100);
    await log.flush();
    expect((await fileText()).trim().split('\n')).toHaveLength(1);
    log.record(entry(2));
    expect(clock.pendingSleeps()).toBe(1); // a flush is scheduled
    for (let i = 3; i <= 5; i++) log.record(entry(i));
    expect(clock.pendingSleeps()).toBe(0); // the full batch went out at once, no timer left
    await log.flush(); // nothing queued: waits for the batch already handed to the file
    expect((await fileText()).trim().split('\n')).toHaveLength(5);
  });

  it('loads a crash-truncated file: the good lines, skipping the half line, and continues on a fresh line', async () => {
    const good = Array.from({ length: 7 }, (_, i) => JSON.stringify({ ...recordLike(i) }));
    await writeFile(path.join(dataDir, AUDIT_FILE), `${good.join('\n')}\n{"id":"half","ts":"2026-`);
    const log = await openLog();
    expect(log.query({ limit: 1000 })).toHaveLength(7);
    expect(log.skippedOnLoad).toBe(1);
    log.record(entry(8));
    await log.close();
    const reopened = await openLog();
    expect(reopened.query({ limit: 1000 }).map((r) => r.callId)).toEqual([...good.map((_, i) => `call-${i}`), 'call-8']);
  });

  it('skips a garbage line in the middle without losing the rest', async () => {
    await writeFile(path.join(dataDir, AUDIT_FILE), `${JSON.stringify(recordLike(1))}\nnot json\n${JSON.stringify(recordLike(2))}\n`);
    const log = await openLog();
    expect(log.query().map((r) => r.callId)).toEqual(['call-1', 'call-2']);
    expect(log.skippedOnLoad).toBe(1);
  });

  it('keeps the last 1000 in memory and reads the last 1000 back, however long the file', async () => {
    const lines = Array.from({ length: 1500 }, (_, i) => JSON.stringify(recordLike(i, 'z'.repeat(100))));
    await appendFile(path.join(dataDir, AUDIT_FILE), `${lines.join('\n')}\n`); // > 64 KiB: several backward chunks
    const log = await openLog();
    let kept = log.query({ limit: 1000 });
    expect(kept).toHaveLength(1000);
    expect(kept[0]?.callId).toBe('call-500');
    for (let i = 0; i < 5; i++) log.record(entry(2000 + i));
    kept = log.query({ limit: 1000 });
    expect(kept).toHaveLength(1000);
    expect(kept[0]?.callId).toBe('call-505');
    expect(kept.at(-1)?.callId).toBe('call-2004');
  });

  it('queries by session and limit, newest last', async () => {
    const log = await openLog();
    for (let i = 1; i <= 6; i++) log.record(entry(i));
    expect(log.query({ sessionId: 'odd' }).map((r) => r.callId)).toEqual(['call-1', 'call-3', 'call-5']);
    expect(log.query({ limit: 2 }).map((r) => r.callId)).toEqual(['call-5', 'call-6']);
    expect(log.query({ sessionId: 'nobody' })).toEqual([]);
  });
});

describe('SessionAuditRecorder', () => {
  it('writes one record per tool call with the decision its tool_result carries, or not_checked without one', async () => {
    const log = await openLog();
    const recorder = new SessionAuditRecorder(log, 's1');
    recorder.observe({ type: 'tool_call', turnId: 't1', callId: 'a', tool: 'run_command', args: { command: 'ls' }, danger: 'dangerous' });
    recorder.observe({ type: 'command_output', callId: 'a', data: 'x' });
    recorder.observe({
      type: 'tool_result',
      turnId: 't1',
      callId: 'a',
      tool: 'run_command',
      isError: false,
      output: 'file.txt\n',
      durationMs: 12,
      decision: 'allow_once',
      decidedBy: 'ana',
    });
    recorder.observe({ type: 'tool_call', turnId: 't1', callId: 'b', tool: 'nope', args: {}, danger: 'safe' });
    recorder.observe({ type: 'tool_result', turnId: 't1', callId: 'b', tool: 'nope', isError: true, output: 'unknown tool', durationMs: 0 });
    expect(log.query()).toEqual([
      expect.objectContaining({
        sessionId: 's1',
        turnId: 't1',
        callId: 'a',
        tool: 'run_command',
        danger: 'dangerous',
        args: { command: 'ls' },
        resultSummary: 'file.txt',
        durationMs: 12,
        decision: 'allow_once',
        decidedBy: 'ana',
      }),
      expect.objectContaining({ callId: 'b', isError: true, decision: 'not_checked' }),
    ]);
  });
});

function recordLike(i: number, pad = '') {
  return {
    id: `id-${i}`,
    ts: '2026-01-01T00:00:00.000Z',
    sessionId: 's',
    callId: `call-${i}`,
    tool: 'read_file',
    danger: 'safe',
    args: { path: `f${i}${pad}` },
    resultSummary: 'ok',
    isError: false,
    durationMs: 1,
    decision: 'safe',
  };
}

describe('AuditLog start-up failure', () => {
  it('says which file it could not open and what to check', async () => {
    const blocker = path.join(dataDir, 'not-a-dir');
    await writeFile(blocker, 'x');
    await expect(AuditLog.open({ dataDir: blocker })).rejects.toThrow(/cannot open the audit log .*not-a-dir.*data directory is writable/);
  });
});
