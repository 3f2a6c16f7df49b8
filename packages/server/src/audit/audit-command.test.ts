import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until } from '@tandem/testkit';
import { AUDIT_FILE, AuditLog } from './audit-log.js';
import { runAuditCommand } from './audit-command.js';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'tandem-audit-cli-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function capture() {
  let text = '';
  return { out: { write: (s: string) => (text += s) }, text: () => text };
}

async function seed(n: number) {
  const log = await AuditLog.open({ dataDir });
  for (let i = 1; i <= n; i++) {
    log.record({
      sessionId: i % 2 ? 'session-odd' : 'session-even',
      callId: `call-${i}`,
      tool: 'run_command',
      danger: 'dangerous',
      args: { command: `echo ${i}` },
      output: `${i}`,
      isError: i === 3,
      durationMs: i,
      decision: 'allow_once',
      decidedBy: 'ana',
    });
  }
  return log;
}

describe('runAuditCommand', () => {
  it('prints a table of the most recent records, optionally one session', async () => {
    await (await seed(5)).close();
    const all = capture();
    expect(await runAuditCommand({ dataDir, out: all.out, limit: 3 })).toBe(0);
    const lines = all.text().trim().split('\n');
    expect(lines[0]).toMatch(/^TIME\s+SESSION\s+TOOL\s+DECISION\s+BY\s+ERR\s+MS\s+ARGS$/);
    expect(lines.slice(1).map((l) => l.match(/echo \d/)?.[0])).toEqual(['echo 3', 'echo 4', 'echo 5']);
    expect(lines[1]).toMatch(/run_command\s+allow_once\s+ana\s+yes/);

    const odd = capture();
    await runAuditCommand({ dataDir, out: odd.out, sessionId: 'session-odd' });
    expect(odd.text().match(/echo \d/g)).toEqual(['echo 1', 'echo 3', 'echo 5']);
  });

  it('prints JSON lines, and says so when there is nothing', async () => {
    const empty = capture();
    await runAuditCommand({ dataDir, out: empty.out });
    expect(empty.text()).toMatch(/^no audit records in .*agent-audit\.jsonl/);
    await (await seed(2)).close();
    const json = capture();
    await runAuditCommand({ dataDir, out: json.out, json: true });
    expect(
      json
        .text()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).callId),
    ).toEqual(['call-1', 'call-2']);
  });

  it('follows the file with --tail until stopped, printing whole lines only', async () => {
    const log = await seed(1);
    await log.flush();
    const tail = capture();
    const stop = new AbortController();
    const done = runAuditCommand({ dataDir, out: tail.out, tail: true, json: true, signal: stop.signal, pollIntervalMs: 20 });
    await until(() => tail.text().includes('call-1'), 'the existing record');
    log.record({
      sessionId: 's',
      callId: 'call-new',
      tool: 'read_file',
      danger: 'safe',
      args: {},
      output: '',
      isError: false,
      durationMs: 1,
      decision: 'safe',
    });
    await log.flush();
    await appendFile(path.join(dataDir, AUDIT_FILE), '{"id":"half'); // a line still being written
    await until(() => tail.text().includes('call-new'), 'the appended record');
    stop.abort();
    expect(await done).toBe(0);
    expect(
      tail
        .text()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).callId),
    ).toEqual(['call-1', 'call-new']);
    await log.close();
  });
});
