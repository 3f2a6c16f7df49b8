import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { RunningServer } from '@tandem/server';
import { makeTempDir, type FakeModelServer, type TempDir } from '@tandem/testkit';
import { TandemClient } from '@tandem/tui';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTandem, tandemShellLine } from './cli-runner.js';
import { sessionEvents, startServerFixture, type ServerFixture } from './server-fixture.js';
import { TcpProxy } from './tcp-proxy.js';
import { Tmux } from './tmux.js';

// The TUI in a real terminal: a real server (in this process) with a scripted fake model, and
// `tandem attach` running from TypeScript source under tsx inside tmux, read with capture-pane.

let fixture: ServerFixture;
let fake: FakeModelServer;
let server: RunningServer;
let dataDir: TempDir;
let project: TempDir;
let tokens: { control: string; view: string };
let sessionId: string;
const tmux = new Tmux();

beforeAll(async () => {
  fixture = await startServerFixture('tui-test');
  ({ fake, server, dataDir, project, tokens, sessionId } = fixture);
}, 600_000);

afterAll(async () => {
  tmux.kill();
  await fixture?.close();
});

describe('tandem attach in a real terminal', () => {
  it('a driver sends a message and sees the tool call and the streamed answer', async () => {
    tmux.start('driver', tandemShellLine(['attach', sessionId, '--url', server.url, '--token', tokens.control, '--name', 'ana']));
    await tmux.waitFor('driver', (screen) => screen.includes('tui-test') && /driver │ idle/.test(screen), 180_000);

    fake.enqueue(
      { toolCalls: [{ name: 'list_directory', args: { path: '.' } }] },
      { chunks: ['The project has ', 'a README.md ', 'and a src folder.'], chunkDelayMs: 30 },
    );
    tmux.type('driver', 'what is in this project?', 'Enter');
    const screen = await tmux.waitFor('driver', (s) => s.includes('and a src folder.') && s.includes('→ OK'));

    expect(screen).toContain('ana › what is in this project?');
    expect(screen).toMatch(/⚙ list_directory \./);
    expect(screen).toContain('README.md');
    expect(screen).toMatch(/\[1\] list_directory\("\."\) → OK \(\d+(ms|\.\ds)\)/);
    expect(screen).toContain('The project has a README.md and a src folder.');
    expect(screen).toMatch(/openai\/gpt-4\.1-mini/);
  }, 600_000);

  it('a viewer replays the same transcript and cannot start a turn', async () => {
    tmux.start('viewer', tandemShellLine(['attach', sessionId, '--url', server.url, '--viewer', '--data-dir', dataDir.path, '--name', 'bo']));
    const screen = await tmux.waitFor('viewer', (s) => s.includes('and a src folder.') && s.includes('viewer'), 180_000);
    expect(screen).toContain('ana › what is in this project?');
    expect(screen).toMatch(/\[1\] list_directory\("\."\) → OK/);
    expect(screen).toContain('watch-only');

    // The driver sees who else is attached.
    await tmux.waitFor('driver', 'with bo (viewer)');

    tmux.type('viewer', 'let me drive', 'Enter');
    await tmux.waitFor('viewer', 'watch-only: attached with the view token; a driver must send messages');
    expect(tmux.capture('viewer')).not.toContain('let me drive');
    const users = (await sessionEvents(fixture)).filter((event) => event.type === 'user_message');
    expect(users.map((event) => [event.by, event.text])).toEqual([['ana', 'what is in this project?']]);
  }, 600_000);

  it("a viewer sees the driver's next turn live", async () => {
    // Markdown shows rendered: the strong text without its stars.
    fake.enqueue({ chunks: ['Second ', '**answer**, ', 'live.'], chunkDelayMs: 30 });
    tmux.type('driver', 'and now?', 'Enter');
    const screen = await tmux.waitFor('viewer', 'Second answer, live.');
    expect(screen).toContain('ana › and now?');
    // The turn is over for everyone once its run summary shows.
    await tmux.waitFor('viewer', (s) => /Second answer, live\.\n┌─ Agent run ─+┐\n│ Model: openai\/gpt-4\.1-mini +│\n│ Iterations: 1 +│/.test(s));
    await tmux.waitFor('driver', /driver │ idle/);
  }, 600_000);

  it('Ctrl-C while a turn runs cancels the turn and keeps the TUI open', async () => {
    fake.enqueue({ hang: true });
    tmux.type('driver', 'think forever', 'Enter');
    await tmux.waitFor('driver', (s) => s.includes('ana › think forever') && /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] thinking/.test(s) && s.includes('Ctrl-C cancel turn'));
    // Cancel only once the model really holds the request: cancelled before it was sent, the hang
    // reply would stay queued and the next test's turn would hang instead (seen under load).
    await until(() => fake.pending() === 0, 'the model to take the request');
    tmux.type('driver', '', 'C-c');
    const screen = await tmux.waitFor('driver', (s) => s.includes('! turn cancelled') && /driver │ idle/.test(s));
    expect(screen).not.toContain('TANDEM EXITED');
    await tmux.waitFor('viewer', '! turn cancelled');
  }, 600_000);

  it('/in types a line into the running command', async () => {
    fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'read -r who; echo "hello, $who"' } }] }, { text: 'It greeted you.' });
    tmux.type('driver', 'greet me', 'Enter');
    // run_command is dangerous: the server asks first.
    await tmux.waitFor('driver', (s) => s.includes('Permission needed: run_command') && s.includes('command: read -r who'));
    await tmux.answerPermission('driver', 'y');
    await tmux.waitFor('driver', (s) => s.includes('⚙ run_command read -r who') && s.includes('… running') && !s.includes('Permission needed'));
    tmux.type('driver', '/in world', 'Enter');
    await tmux.waitFor('driver', (s) => s.includes('It greeted you.') && s.includes('→ OK') && s.includes('│ hello, world'));
  }, 600_000);

  it('/compact asks the server and shows what it did', async () => {
    tmux.type('driver', '/compact', 'Enter');
    const screen = await tmux.waitFor(
      'driver',
      (s) => /\/compact: nothing compacted: \S|· context compacted: \d+ messages|! compaction skipped: \S/.test(s),
      90_000,
    );
    expect(screen).not.toContain('/compact failed');
  }, 600_000);

  it('Ctrl-C on an idle driver exits cleanly', async () => {
    await tmux.waitFor('driver', /driver │ idle/);
    tmux.type('driver', '', 'C-c');
    await tmux.waitFor('driver', 'TANDEM EXITED 0');
  }, 600_000);
});

describe('tandem attach across a dropped connection', () => {
  it('shows the connection is lost, then catches up on what happened meanwhile', async () => {
    const proxy = new TcpProxy(Number(new URL(server.url).port));
    const proxyUrl = await proxy.listen();
    const other = new TandemClient(server.url, { token: tokens.control, name: 'dee' });
    try {
      tmux.start('flaky', tandemShellLine(['attach', sessionId, '--url', proxyUrl, '--token', tokens.control, '--name', 'flo']));
      await tmux.waitFor('flaky', (s) => s.includes('tui-test') && /driver │ .*idle/.test(s), 180_000);

      proxy.cut();
      await tmux.waitFor('flaky', /○ http:\/\/127\.0\.0\.1:\d+ lost: .* · retry/);

      await other.ready();
      await other.attach(sessionId, 'driver');
      fake.enqueue({ chunks: ['Answered ', 'while flo ', 'was away.'] });
      let done = false;
      other.subscribe((signal) => {
        if (signal.kind === 'event' && signal.event.type === 'turn_done') done = true;
      });
      await other.request('session:send', { sessionId, text: 'anyone there?' });
      const deadline = Date.now() + 60_000;
      while (!done && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(done).toBe(true);
      expect(tmux.capture('flaky')).not.toContain('Answered while flo was away.');

      proxy.resume();
      const screen = await tmux.waitFor('flaky', (s) => s.includes('Answered while flo was away.') && s.includes('● local:'));
      expect(screen).toContain('dee › anyone there?');
      expect(screen.match(/dee › anyone there\?/g)).toHaveLength(1);
    } finally {
      other.close();
      await proxy.close();
    }
  }, 600_000);
});

describe('tandem without a running server', () => {
  it('starts one in the background and opens a session for the current directory', async () => {
    const freshData = await makeTempDir('tandem-auto-data-');
    const port = await freePort();
    let pid: number | undefined;
    try {
      tmux.start('auto', tandemShellLine(['--data-dir', freshData.path, '--port', String(port), '--name', 'cy'], { cwd: project.path }), fixture.modelEnv);
      const screen = await tmux.waitFor('auto', (s) => /driver │ idle/.test(s), 240_000);
      expect(screen).toContain(`● local:${port}`);
      const info = JSON.parse(await readFile(join(freshData.path, 'server.json'), 'utf8')) as { url: string; pid: number };
      pid = info.pid;
      expect(info.url).toBe(`http://127.0.0.1:${port}`);
      const listed = await runTandem(['ls', '--data-dir', freshData.path, '--json']);
      expect(listed.code).toBe(0);
      const sessions = JSON.parse(listed.stdout) as Array<{ cwd: string }>;
      expect(sessions.map((session) => session.cwd)).toEqual([project.path]);
      await expect(readFile(join(freshData.path, 'server.out'), 'utf8')).resolves.toContain(`tandem listening on http://127.0.0.1:${port}`);
    } finally {
      // The server writes into its data dir until it has exited: wait for that before removing it.
      if (pid) await stopAndWait(pid);
      await freshData.cleanup();
    }
  }, 600_000);
});

describe('tandem ls and attach errors', () => {
  it('lists sessions as a plain table', async () => {
    const result = await runTandem(['ls', '--url', server.url, '--token', tokens.view]);
    expect(result.code).toBe(0);
    const [header, ...rows] = result.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^ID\s+FOLDER\s+STATUS\s+MODEL\s+MODE\s+CLIENTS\s+TITLE$/);
    const row = rows.find((line) => line.startsWith(sessionId));
    expect(row).toBeDefined();
    expect(row).toContain('tui-test');
    expect(row).toContain(project.path);
    expect(row).toContain('openai/gpt-4.1-mini');
  }, 600_000);

  it('says unauthorized for a wrong token, before any screen opens', async () => {
    const result = await runTandem(['attach', '--url', server.url, '--token', 'wrong-token']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('unauthorized');
    expect(result.stdout).toBe('');
  }, 600_000);
});

async function until(check: () => boolean, what: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** SIGTERM, then wait (bounded) until the process is gone. */
async function stopAndWait(pid: number): Promise<void> {
  const gone = () => {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  };
  if (gone()) return;
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 60_000;
  while (!gone() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
