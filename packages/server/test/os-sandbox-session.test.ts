import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BWRAP, bwrapSkipNotice } from '../src/os-sandbox/sandbox.test-helper.js';
import { OsSandbox } from '../src/os-sandbox/os-sandbox.js';
import { fakeModelBed, startTestServer } from './server-harness.js';

/**
 * The OS sandbox as a user meets it: named in SessionInfo and server:status, and around every
 * run_command of a real turn — a granted directory is writable from the next command on, a
 * directory that was not granted is not. (The destructive cases run against a throwaway tree
 * in src/os-sandbox/os-sandbox.test.ts; nothing here deletes anything.)
 */
const bed = fakeModelBed({ fakePer: 'file' });

let outsideRoot: string;
beforeAll(() => {
  // Under /var/tmp: the sandbox's /tmp is private, so a /tmp directory would be hidden, not read-only.
  outsideRoot = mkdtempSync(join(existsSync('/var/tmp') ? '/var/tmp' : tmpdir(), 'tandem-sbx-session-'));
});
afterAll(() => rmSync(outsideRoot, { recursive: true, force: true }));

if (!BWRAP.ok) bwrapSkipNotice('OS sandbox through a real turn');

describe.skipIf(!BWRAP.ok)('OS sandbox through a real turn', () => {
  it('is named in SessionInfo and server:status; a grant opens a directory to the next command', async () => {
    const later = join(outsideRoot, 'granted-later');
    mkdirSync(later);
    const target = join(later, 'written.txt');
    const write = `echo from-the-sandbox > ${JSON.stringify(target)} && echo wrote || echo refused`;
    bed.server = await startTestServer({ env: bed.env() });
    const alice = await bed.server.connect('alice');
    const { session } = await alice.ok('session:create', {});
    expect(session.sandbox).toBe('bubblewrap (network: ask)');
    expect((await alice.ok('session:list', {})).sessions[0]!.sandbox).toBe('bubblewrap (network: ask)');
    expect((await alice.ok('server:status', {})).sandbox).toBe('bubblewrap (network: ask)');
    await alice.ok('session:attach', { sessionId: session.id, role: 'driver' });
    alice.approveAll(session.id);

    bed.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: write } }] }, { text: 'Tried.' });
    await alice.ok('session:send', { sessionId: session.id, text: 'write it' });
    await alice.waitFor((e) => e.type === 'turn_done');
    const first = alice.events.filter((e) => e.type === 'tool_result').at(-1);
    expect(first?.type === 'tool_result' && first.output).toContain('Read-only file system');
    expect(first?.type === 'tool_result' && first.output).toContain('the OS sandbox (bubblewrap (network: ask)) keeps everything outside the workspace');
    expect(existsSync(target)).toBe(false);
    const call = alice.events.find((e) => e.type === 'tool_call');
    expect(call?.type === 'tool_call' && call.sandbox).toBe('bubblewrap (network: ask)');

    await alice.ok('sandbox:grant', { sessionId: session.id, path: later });
    const mark = alice.events.at(-1)!.seq;
    bed.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: `${write}; true` } }] }, { text: 'Done.' });
    await alice.ok('session:send', { sessionId: session.id, text: 'now again' });
    await alice.waitFor((e) => e.type === 'turn_done' && e.seq > mark);
    const second = alice.events.filter((e) => e.type === 'tool_result').at(-1);
    expect(second?.type === 'tool_result' && second.output).toContain('wrote');
    expect(readFileSync(target, 'utf8')).toBe('from-the-sandbox\n');
  });

  it('says when it is off and why, and when commands have no network', async () => {
    const off = await startTestServer({ env: bed.env(), settings: { commandSandbox: { enabled: false } } });
    try {
      const client = await off.connect('alice');
      const { session } = await client.ok('session:create', {});
      // Said plainly: nothing of the guarded workspace is enforced then.
      expect(session.sandbox).toBe(
        'off: turned off in config.json (commandSandbox.enabled: false) — network limits, protected paths and the block on the server port are not enforced',
      );
      expect((await client.ok('server:status', {})).sandbox).toBe(session.sandbox);
    } finally {
      await off.stop();
    }
    const dataDir = mkdtempSync(join(tmpdir(), 'tandem-sbx-data-'));
    const noNet = await startTestServer({
      env: bed.env(),
      dataDir,
      osSandbox: new OsSandbox({ home: dataDir, dataDir, settings: { network: false } }),
    });
    try {
      const client = await noNet.connect('alice');
      const { session } = await client.ok('session:create', {});
      expect(session.sandbox).toBe('bubblewrap (no network)');
    } finally {
      await noNet.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
