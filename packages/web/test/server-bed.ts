import { rmSync } from 'node:fs';
import { type Application, type ApplicationDeps, createApplication } from '@tandem/server';
import { type FakeModelServer, makeTempDir, startFakeModelServer, type TempDir } from '@tandem/testkit';
import { TandemClient } from '@tandem/tui/client';
import { type Action, initialState, reduce, type ViewState } from '@tandem/tui/state';

export const TOKENS = { control: 'web-control-token-for-tests', view: 'web-view-token-for-tests' };

/** What every test session is created with: the bed's workspace and the fake model. */
export function sessionOptions(bed: ServerBed, title: string): { title: string; cwd: string; model: string } {
  return { title, cwd: bed.workspace.path, model: 'openai/fake-model' };
}

/** A real server on loopback serving the page from `webDir`, with the fake model behind it. */
export interface ServerBed {
  url: string;
  port: number;
  fake: FakeModelServer;
  workspace: TempDir;
  dataDir: string;
  /** Stops the server (sessions saved), runs `whileStopped` (e.g. to grow a session's log), then starts a new one on the same port and data dir. */
  restart(whileStopped?: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

const dirs: TempDir[] = [];
process.once('exit', () => {
  for (const dir of dirs) rmSync(dir.path, { recursive: true, force: true });
});

async function tempDir(prefix: string): Promise<TempDir> {
  const dir = await makeTempDir(prefix);
  dirs.push(dir);
  return dir;
}

export interface BedOptions {
  /** Serve HTTPS and WSS with this certificate and key (PEM), as `tandem serve --tls-cert --tls-key`. */
  tls?: { cert: string; key: string };
  /** The server's clock (a FakeClock to make a share expire without waiting), with the guards off as its timers would need it. */
  clock?: ApplicationDeps['clock'];
}

export async function startServerBed(webDir: string, options: BedOptions = {}): Promise<ServerBed> {
  const fake = await startFakeModelServer();
  const workspace = await tempDir('tandem-web-ws-');
  const dataDir = (await tempDir('tandem-web-data-')).path;
  const open = async (port: number): Promise<{ app: Application; url: string }> => {
    const app = await createApplication({
      tokens: TOKENS,
      dataDir,
      // Sessions get their cwd and model from session:create (sessionOptions below).
      env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.openaiBaseURL, TANDEM_WEB_DIR: webDir },
      ...(options.tls ? { tls: options.tls } : {}),
      // The guards' audit log flushes on a timer of the clock: a fake clock needs them off.
      ...(options.clock ? { clock: options.clock, guards: 'off' as const } : {}),
    });
    const { url } = await app.listen(port, '127.0.0.1');
    return { app, url };
  };
  let current = await open(0);
  const port = Number(new URL(current.url).port);
  const bed: ServerBed = {
    url: current.url,
    port,
    fake,
    workspace,
    dataDir,
    async restart(whileStopped) {
      await current.app.close();
      await whileStopped?.();
      current = await open(port);
    },
    async stop() {
      await current.app.close();
      await fake.close();
    },
  };
  return bed;
}

/** The TUI's own client and reducer in this process: what a terminal beside the page shows. */
export class TuiSide {
  state: ViewState;
  readonly client: TandemClient;
  private waiters: Array<() => void> = [];

  /** `ca`: the certificate (PEM) to trust for an `https://` server. */
  constructor(url: string, name: string, token = TOKENS.control, ca?: string) {
    this.state = initialState({ url, me: name, role: 'driver' });
    this.client = new TandemClient(url, { token, name, reconnectionDelayMs: 200, reconnectionDelayMaxMs: 2_000, ...(ca ? { ca } : {}) });
    this.client.subscribe((signal) => {
      const action: Action =
        signal.kind === 'connection'
          ? { kind: 'connection', connection: signal.connection }
          : signal.kind === 'attached'
            ? { kind: 'attached', session: signal.session, role: signal.role }
            : signal.kind === 'warning'
              ? { kind: 'notice', level: 'warn', text: signal.message }
              : { kind: 'event', event: signal.event };
      this.state = reduce(this.state, action);
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Resolves when `test(state)` holds (checked after every signal); fails after `timeoutMs`. */
  async until(what: string, test: (state: ViewState) => boolean, timeoutMs = 20_000): Promise<ViewState> {
    const deadline = Date.now() + timeoutMs;
    while (!test(this.state)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`the TUI-side client never saw ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.state;
  }

  close(): void {
    this.client.close();
  }
}
