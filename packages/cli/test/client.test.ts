import { Writable } from 'node:stream';
import type { SessionEvent } from '@tandem/shared';
import { runServe, type RunningServer } from '@tandem/server';
import { makeTempDir, startFakeModelServer, type FakeModelServer, type TempDir } from '@tandem/testkit';
import { TandemClient, RequestError, chooseSession, initialState, reduce, type ClientSignal } from '@tandem/tui';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TcpProxy } from './tcp-proxy.js';

// The TUI's socket.io client against the real server: acks, errors, refusal, and a reconnect
// through a proxy we cut, after which the client re-attaches and misses nothing.

let fake: FakeModelServer;
let dataDir: TempDir;
let server: RunningServer;
let tokens: { control: string; view: string };
const clients: TandemClient[] = [];

function client(url: string, token: string, name: string): TandemClient {
  const created = new TandemClient(url, { token, name, reconnectionDelayMs: 100, requestTimeoutMs: 10_000 });
  clients.push(created);
  return created;
}

function collect(target: TandemClient): ClientSignal[] {
  const signals: ClientSignal[] = [];
  target.subscribe((signal) => signals.push(signal));
  return signals;
}

async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const events = (signals: ClientSignal[]) => signals.flatMap((signal) => (signal.kind === 'event' ? [signal.event] : []));
const persistedSeqs = (list: SessionEvent[]) => list.filter((event) => !event.ephemeral).map((event) => event.seq);
const turnsDone = (signals: ClientSignal[]) => events(signals).filter((event) => event.type === 'turn_done').length;

beforeAll(async () => {
  fake = await startFakeModelServer();
  fake.setHandler(() => ({ chunks: ['an ', 'answer'], chunkDelayMs: 5 }));
  dataDir = await makeTempDir('tandem-client-');
  const env: NodeJS.ProcessEnv = { ...process.env, TANDEM_MODEL: 'openai/gpt-4.1-mini', OPENAI_BASE_URL: fake.openaiBaseURL, OPENAI_API_KEY: 'k' };
  delete env.TANDEM_TOKEN;
  delete env.TANDEM_VIEW_TOKEN;
  const sink = new Writable({ write: (_c, _e, done) => done() });
  server = await runServe({ host: '127.0.0.1', port: 0, dataDir: dataDir.path, env, handleSignals: false, stdout: sink });
  tokens = {
    control: (await readFile(join(dataDir.path, 'token'), 'utf8')).trim(),
    view: (await readFile(join(dataDir.path, 'view-token'), 'utf8')).trim(),
  };
}, 240_000);

afterAll(async () => {
  for (const each of clients) each.close();
  await server?.close();
  await fake?.close();
  await dataDir?.cleanup();
});

describe('TandemClient against a real server', () => {
  it('re-attaches after the connection drops and delivers every missed event once', async () => {
    const proxy = new TcpProxy(Number(new URL(server.url).port));
    const proxyUrl = await proxy.listen();
    try {
      const direct = client(server.url, tokens.control, 'direct');
      await direct.ready();
      const { session } = await direct.request('session:create', { cwd: dataDir.path, title: 'reconnect' });
      const directSignals = collect(direct);
      await direct.attach(session.id, 'driver');

      const flaky = client(proxyUrl, tokens.control, 'flaky');
      const signals = collect(flaky);
      await flaky.ready();
      await flaky.attach(session.id, 'viewer');

      await direct.request('session:send', { sessionId: session.id, text: 'first' });
      await until(() => turnsDone(signals) === 1, 'the first turn on the flaky client');

      proxy.cut();
      await until(() => flaky.connection.status === 'reconnecting', 'the flaky client to notice');
      await direct.request('session:send', { sessionId: session.id, text: 'second, while flaky is away' });
      await until(() => turnsDone(directSignals) === 2, 'the second turn');
      expect(turnsDone(signals)).toBe(1);

      proxy.resume();
      await until(() => turnsDone(signals) === 2, 'the flaky client to catch up');
      expect(signals.filter((signal) => signal.kind === 'attached')).toHaveLength(2);

      // Exactly the persisted events a fresh client replays: nothing missed, nothing twice.
      const fresh = client(server.url, tokens.view, 'fresh');
      const freshSignals = collect(fresh);
      await fresh.ready();
      await fresh.attach(session.id, 'viewer');
      // The fresh attach itself adds a presence event; let it reach the flaky client too.
      const freshSeqs = persistedSeqs(events(freshSignals));
      await until(() => flaky.lastSeq >= Math.max(...freshSeqs), 'the presence event of the fresh client');
      const seen = persistedSeqs(events(signals)).filter((seq) => seq <= Math.max(...freshSeqs));
      expect(seen).toEqual(freshSeqs);
      expect(new Set(seen).size).toBe(seen.length);
      expect(
        events(signals)
          .filter((event) => event.type === 'user_message')
          .map((event) => (event as { text: string }).text),
      ).toEqual(['first', 'second, while flaky is away']);

      // And the view folded from the live stream equals the one folded from the replay.
      const fold = (list: ClientSignal[]) =>
        list.reduce(
          (state, signal) => {
            if (signal.kind === 'attached') return reduce(state, { kind: 'attached', session: signal.session, role: signal.role });
            if (signal.kind === 'event') return reduce(state, { kind: 'event', event: signal.event });
            return state;
          },
          initialState({ url: '', me: 'x', role: 'viewer' }),
        );
      expect(fold(signals).items).toEqual(fold(freshSignals).items);
      expect(
        fold(signals)
          .items.filter((item) => item.kind === 'assistant')
          .map((item) => (item as { text: string }).text),
      ).toEqual(['an answer', 'an answer']);
    } finally {
      await proxy.close();
    }
  }, 240_000);

  it('is refused with a clear message for a wrong token', async () => {
    const refused = client(server.url, 'not-a-token', 'intruder');
    await expect(refused.ready()).rejects.toThrow(/unauthorized/);
    expect(refused.connection).toMatchObject({ status: 'refused', reason: 'unauthorized' });
    // Asking again answers at once, with the same reason.
    await expect(refused.ready(60_000)).rejects.toThrow(/unauthorized \(the token is wrong or missing/);
  });

  it('turns error acks into RequestError with the server code', async () => {
    const viewer = client(server.url, tokens.view, 'viewer');
    await viewer.ready();
    const createError = await viewer.request('session:create', {}).catch((err: unknown) => err);
    expect(createError).toBeInstanceOf(RequestError);
    expect(createError).toMatchObject({ code: 'forbidden' });
    await expect(viewer.attach('no-such-session', 'viewer')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('fails fast when not connected', async () => {
    const gone = client('http://127.0.0.1:9', tokens.control, 'nowhere');
    await expect(gone.request('session:list', {})).rejects.toMatchObject({ code: 'disconnected' });
    await expect(gone.ready(500)).rejects.toThrow(/could not connect to http:\/\/127\.0\.0\.1:9/);
  });

  it('chooses the session for a directory, creating it once; finds ids by prefix', async () => {
    const driver = client(server.url, tokens.control, 'chooser');
    const viewer = client(server.url, tokens.view, 'chooser-viewer');
    await Promise.all([driver.ready(), viewer.ready()]);
    const cwd = join(dataDir.path, 'workspace');
    await mkdir(cwd);
    await expect(chooseSession(viewer, { cwd, viewer: true })).rejects.toThrow(`no session for ${cwd}`);
    const created = await chooseSession(driver, { cwd });
    expect(created.cwd).toBe(cwd);
    expect((await chooseSession(driver, { cwd })).id).toBe(created.id);
    expect((await chooseSession(viewer, { cwd, viewer: true })).id).toBe(created.id);
    expect((await chooseSession(viewer, { sessionId: created.id.slice(0, 12) })).id).toBe(created.id);
    await expect(chooseSession(viewer, { sessionId: 'zz-no-such' })).rejects.toThrow(/no session "zz-no-such".*tandem ls/);
  });
});
