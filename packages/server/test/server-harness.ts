import { rmSync } from 'node:fs';
import { io as connect, type Socket } from 'socket.io-client';
import type { Ack, CommandName, CommandPayload, CommandResult, SessionEvent } from '@tandem/shared';
import { SESSION_EVENT } from '@tandem/shared';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { makeTempDir, startFakeModelServer, type FakeModelServer, type TempDir } from '@tandem/testkit';
import { createApplication, type Application, type ApplicationDeps, type ApplicationSeams } from '../src/app.js';

/** Temp dirs made here; removed when the test process exits (restart tests reuse them until then). */
const created: TempDir[] = [];
process.once('exit', () => {
  for (const dir of created) rmSync(dir.path, { recursive: true, force: true });
});

async function tempDir(prefix: string): Promise<TempDir> {
  const dir = await makeTempDir(prefix);
  created.push(dir);
  return dir;
}

export const TOKENS = { control: 'control-token-for-tests', view: 'view-token-for-tests' };

export interface TestServer {
  app: Application;
  url: string;
  dataDir: string;
  workspace: TempDir;
  clients: TestClient[];
  connect(name: string, token?: string): Promise<TestClient>;
  /** Closes clients and the server (not the directories). */
  stop(): Promise<void>;
}

/** A real socket.io client recording every session event it receives. */
export class TestClient {
  readonly events: SessionEvent[] = [];
  private waiters: Array<{ test: (e: SessionEvent) => boolean; resolve: (e: SessionEvent) => void }> = [];

  constructor(readonly socket: Socket) {
    socket.on(SESSION_EVENT, (event: SessionEvent) => {
      this.events.push(event);
      this.waiters = this.waiters.filter((w) => {
        if (!w.test(event)) return true;
        w.resolve(event);
        return false;
      });
    });
  }

  request<C extends CommandName>(name: C, payload: CommandPayload<C> | unknown): Promise<Ack<CommandResult<C>>> {
    return this.socket.timeout(10_000).emitWithAck(name, payload) as Promise<Ack<CommandResult<C>>>;
  }

  async ok<C extends CommandName>(name: C, payload: CommandPayload<C>): Promise<CommandResult<C>> {
    const reply = await this.request(name, payload);
    if (!reply.ok) throw new Error(`${name} failed: ${reply.error.code}: ${reply.error.message}`);
    return reply.data;
  }

  /** Resolves with the first event (already received or future) that matches. */
  waitFor(test: (e: SessionEvent) => boolean, timeoutMs = 60_000): Promise<SessionEvent> {
    const seen = this.events.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no matching event within ${timeoutMs} ms; got ${this.events.map((e) => e.type).join(', ')}`)),
        timeoutMs,
      );
      this.waiters.push({
        test,
        resolve: (e) => {
          clearTimeout(timer);
          resolve(e);
        },
      });
    });
  }

  /**
   * Answers every permission question of `sessionId` through this (driver) socket with
   * `decision`, as a person at the TUI would: for tests whose subject is not the permission flow.
   */
  approveAll(sessionId: string, decision: 'allow_once' | 'allow_session' = 'allow_once'): void {
    this.socket.on(SESSION_EVENT, (event: SessionEvent) => {
      if (event.type !== 'permission_request' || event.sessionId !== sessionId) return;
      void this.request('permission:respond', { sessionId, requestId: event.requestId, decision });
    });
  }

  persisted(): SessionEvent[] {
    return this.events.filter((e) => !e.ephemeral);
  }

  close(): void {
    this.socket.close();
  }
}

export function connectSocket(url: string, auth: Record<string, unknown>): Socket {
  return connect(url, { auth, transports: ['websocket'], reconnection: false, forceNew: true });
}

export function connectClient(url: string, name: string, token: string): Promise<TestClient> {
  const socket = connectSocket(url, { token, name });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(new TestClient(socket)));
    socket.once('connect_error', (err) => reject(err));
  });
}

/** Starts a real server on 127.0.0.1:0 over a fresh data dir (or a given one). */
export { tempDir };

/**
 * A test server's options written flat: the host's choices (`env`, `clock`, `defaultModel`,
 * `defaultCwd`, `home`, ...) beside the seams a test replaces (`engine`, `settings`, `guards`, ...).
 */
export type TestServerOptions = Partial<Omit<ApplicationDeps, 'defaults' | 'seams'>> &
  ApplicationSeams & { dataDir?: string; defaultModel?: string; defaultCwd?: string; home?: string };

/** The application's deps for flat test options. */
export function applicationDeps(options: TestServerOptions & { dataDir: string }): ApplicationDeps {
  const { dataDir, tokens, env, logger, clock, defaultModel, defaultCwd, home, cluster, ...seams } = options;
  return {
    dataDir,
    ...(cluster ? { cluster } : {}),
    tokens: tokens ?? TOKENS,
    ...(env ? { env } : {}),
    ...(logger ? { logger } : {}),
    ...(clock ? { clock } : {}),
    defaults: { ...(defaultModel ? { model: defaultModel } : {}), ...(defaultCwd ? { cwd: defaultCwd } : {}), ...(home ? { home } : {}) },
    seams,
  };
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const workspace = await tempDir('tandem-ws-');
  const dataDir = options.dataDir ?? (await tempDir('tandem-data-')).path;
  const app = await createApplication(applicationDeps({ defaultCwd: workspace.path, defaultModel: 'openai/fake-model', ...options, dataDir }));
  const { url } = await app.listen(0, '127.0.0.1');
  const clients: TestClient[] = [];
  return {
    app,
    url,
    dataDir,
    workspace,
    clients,
    async connect(name, token = TOKENS.control) {
      const client = await connectClient(url, name, token);
      clients.push(client);
      return client;
    },
    async stop() {
      for (const c of clients) c.close();
      await app.close();
    },
  };
}

/** A fake model server and the test server of the current test, as most end-to-end tests set them up. */
export interface FakeModelBed {
  /** The fake model server: a fresh one per test, or one per file (its requests and scripts carry over). */
  readonly fake: FakeModelServer;
  /** The test server the current test started, if any; stopped after the test (before the fake closes). */
  server: TestServer | undefined;
  /** Env pointing the real openai SDK at the fake model server. */
  env(): { OPENAI_API_KEY: string; OPENAI_BASE_URL: string };
}

export function fakeModelBed(options: { fakePer?: 'test' | 'file' } = {}): FakeModelBed {
  const perFile = options.fakePer === 'file';
  let fake: FakeModelServer | undefined;
  const bed: FakeModelBed = {
    get fake(): FakeModelServer {
      if (!fake) throw new Error('the fake model server only runs inside a test');
      return fake;
    },
    server: undefined,
    env: () => ({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: bed.fake.openaiBaseURL }),
  };
  (perFile ? beforeAll : beforeEach)(async () => {
    fake = await startFakeModelServer();
  });
  afterEach(async () => {
    await bed.server?.stop();
    bed.server = undefined;
    if (!perFile) await closeFake();
  });
  if (perFile) afterAll(closeFake);
  async function closeFake(): Promise<void> {
    await fake?.close();
    fake = undefined;
  }
  return bed;
}
