import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { runServe, type RunningServer } from '@tandem/server';
import { makeTempDir, startFakeModelServer, type FakeModelServer, type TempDir } from '@tandem/testkit';
import { TandemClient, type ClientSignal, type ConnectionStatus } from '@tandem/tui';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tandemShellLine } from './cli-runner.js';
import { TcpProxy } from './tcp-proxy.js';
import { Tmux } from './tmux.js';

// requirements U5: clients come back after ANY server stop. A real server is stopped cleanly (close(),
// which disconnects every socket the way SIGTERM does) and started again on the same port and
// data directory; the client and the TUI reconnect with backoff and a countdown, and resume
// from their last seq: what happened while they were away shows once, nothing twice.

let fake: FakeModelServer;
let dataDir: TempDir;
let project: TempDir;
let server: RunningServer;
let port: number;
let tokens: { control: string; view: string };
let sessionId: string;
const tmux = new Tmux();
const env: NodeJS.ProcessEnv = { ...process.env };
const sink = new Writable({ write: (_chunk, _encoding, done) => done() });

function serve(onPort: number): Promise<RunningServer> {
  return runServe({ host: '127.0.0.1', port: onPort, dataDir: dataDir.path, env, handleSignals: false, stdout: sink });
}

async function until(check: () => boolean, what: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A driver that sends one message and waits until its turn is done. */
async function sendAndWait(url: string, text: string): Promise<void> {
  const other = new TandemClient(url, { token: tokens.control, name: 'dee' });
  try {
    await other.ready();
    let done = false;
    other.subscribe((signal) => {
      if (signal.kind === 'event' && signal.event.type === 'turn_done') done = true;
    });
    await other.attach(sessionId, 'driver', (await other.request('session:list', {})).sessions.find((s) => s.id === sessionId)?.lastSeq ?? 0);
    await other.request('session:send', { sessionId, text });
    await until(() => done, `the turn for "${text}"`);
  } finally {
    other.close();
  }
}

beforeAll(async () => {
  fake = await startFakeModelServer();
  fake.setHandler(() => ({ text: 'ok' }));
  dataDir = await makeTempDir('tandem-reconnect-data-');
  project = await makeTempDir('tandem-reconnect-project-');
  Object.assign(env, { TANDEM_MODEL: 'openai/gpt-4.1-mini', OPENAI_BASE_URL: fake.openaiBaseURL, OPENAI_API_KEY: 'test-key' });
  delete env.TANDEM_TOKEN;
  delete env.TANDEM_VIEW_TOKEN;
  server = await serve(0);
  port = Number(new URL(server.url).port);
  tokens = {
    control: (await readFile(join(dataDir.path, 'token'), 'utf8')).trim(),
    view: (await readFile(join(dataDir.path, 'view-token'), 'utf8')).trim(),
  };
  const setup = new TandemClient(server.url, { token: tokens.control, name: 'setup' });
  await setup.ready();
  sessionId = (await setup.request('session:create', { cwd: project.path, title: 'comeback' })).session.id;
  setup.close();
}, 600_000);

afterAll(async () => {
  tmux.kill();
  await server?.close();
  await fake?.close();
  await dataDir?.cleanup();
  await project?.cleanup();
});

describe('after a clean server stop', () => {
  it('the client and the TUI reconnect with a countdown and resume from their last seq', async () => {
    const proxy = new TcpProxy(port);
    const proxyUrl = await proxy.listen();
    const client = new TandemClient(server.url, { token: tokens.view, name: 'watcher', reconnectionDelayMs: 100, reconnectionDelayMaxMs: 1_000 });
    const signals: ClientSignal[] = [];
    client.subscribe((signal) => signals.push(signal));
    try {
      tmux.start('tui', tandemShellLine(['attach', sessionId, '--url', proxyUrl, '--token', tokens.control, '--name', 'flo']));
      await tmux.waitFor('tui', (s) => s.includes('comeback') && /driver │ idle/.test(s), 180_000);
      await client.ready();
      await client.attach(sessionId, 'viewer');

      fake.enqueue({ text: 'Before the stop.' });
      await sendAndWait(server.url, 'first question');
      await tmux.waitFor('tui', 'Before the stop.');
      await until(() => client.lastSeq > 0 && signals.some((s) => s.kind === 'event' && s.event.type === 'turn_done'), 'the client to see the first turn');

      // A clean stop: the server disconnects every socket ('io server disconnect').
      await server.close();
      await until(
        () =>
          signals.some((s) => s.kind === 'connection' && s.connection.status === 'reconnecting' && /server closed the connection/.test(s.connection.reason)),
        'the client to notice the clean stop',
      );
      const retrying = signals.flatMap((s) => (s.kind === 'connection' && s.connection.status === 'reconnecting' ? [s.connection] : []));
      expect(retrying.some((c: ConnectionStatus) => c.status === 'reconnecting' && typeof c.retryAt === 'number')).toBe(true);
      expect(signals.some((s) => s.kind === 'connection' && s.connection.status === 'refused')).toBe(false);
      // The TUI says it lost the server and counts down to the next attempt.
      await tmux.waitFor('tui', (s) => /○ http:\/\/127\.0\.0\.1:\d+ lost: .* · retry \d+ (in \d+ s|now)/.test(s));
      // Hold the TUI off until something happened without it.
      proxy.cut();

      server = await serve(port);
      fake.enqueue({ text: 'Answered while the server was restarting.' });
      await sendAndWait(server.url, 'second question');

      await until(() => client.connection.status === 'connected', 'the client to reconnect');
      await until(
        () => signals.some((s) => s.kind === 'event' && s.event.type === 'assistant_text' && s.event.text === 'Answered while the server was restarting.'),
        'the client to catch up',
      );
      const seqs = signals.flatMap((s) => (s.kind === 'event' && !s.event.ephemeral ? [s.event.seq] : []));
      expect(seqs).toEqual([...new Set(seqs)].sort((a, b) => a - b));

      proxy.resume();
      const screen = await tmux.waitFor('tui', (s) => s.includes('Answered while the server was restarting.') && s.includes(`● local:${proxy.port}`), 180_000);
      expect(screen.match(/dee › first question/g)).toHaveLength(1);
      expect(screen.match(/dee › second question/g)).toHaveLength(1);
      expect(screen).not.toContain('start tandem again');
    } finally {
      client.close();
      await proxy.close();
    }
  }, 600_000);
});
