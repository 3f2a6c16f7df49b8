import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { runServe, type RunningServer } from '@tandem/server';
import { makeTempDir, startFakeModelServer, type FakeModelServer, type TempDir } from '@tandem/testkit';
import { TandemClient } from '@tandem/tui';
import { tandemShellLine } from './cli-runner.js';
import type { Tmux } from './tmux.js';

/** A real tandem server (in this process) on port 0, its model the scripted fake, and one session. */
export interface ServerFixture {
  fake: FakeModelServer;
  server: RunningServer;
  dataDir: TempDir;
  /** The session's workspace: README.md and src/main.ts. */
  project: TempDir;
  tokens: { control: string; view: string };
  sessionId: string;
  /** Environment that points a server at the fake model. */
  modelEnv: Record<string, string>;
  close(): Promise<void>;
}

export interface FixtureOptions {
  /** Also give the server an Anthropic key, its base URL the same scripted server (Messages format). */
  anthropic?: boolean;
}

export async function startServerFixture(title: string, config: Record<string, unknown> = {}, options: FixtureOptions = {}): Promise<ServerFixture> {
  const fake = await startFakeModelServer();
  // Anything a test did not script (titles, summaries) gets a plain short answer.
  fake.setHandler(() => ({ text: 'ok' }));
  const dataDir = await makeTempDir('tandem-tui-data-');
  const project = await makeTempDir('tandem-tui-project-');
  await writeFile(join(project.path, 'README.md'), '# demo project\n');
  await mkdir(join(project.path, 'src'));
  await writeFile(join(project.path, 'src', 'main.ts'), 'console.log(1);\n');
  // Ten minutes to answer a permission request and for a command to wait for typed input: on a
  // loaded machine a test must never see the 60 s automatic deny or command timeout while it is
  // still working its way to the answer or the input.
  const limits = { permissionTimeoutMs: 600_000, commandTimeoutMs: 600_000, maxCommandTimeoutMs: 600_000, toolTimeoutMs: 600_000, ...config };
  await writeFile(join(dataDir.path, 'config.json'), `${JSON.stringify(limits)}\n`);
  const modelEnv: Record<string, string> = { TANDEM_MODEL: 'openai/gpt-4.1-mini', OPENAI_BASE_URL: fake.openaiBaseURL, OPENAI_API_KEY: 'test-key' };
  if (options.anthropic) Object.assign(modelEnv, { ANTHROPIC_BASE_URL: fake.anthropicBaseURL, ANTHROPIC_API_KEY: 'test-key' });
  const env: NodeJS.ProcessEnv = { ...process.env, ...modelEnv };
  delete env.TANDEM_TOKEN;
  delete env.TANDEM_VIEW_TOKEN;
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  const server = await runServe({ host: '127.0.0.1', port: 0, dataDir: dataDir.path, env, handleSignals: false, stdout: sink });
  const tokens = {
    control: (await readFile(join(dataDir.path, 'token'), 'utf8')).trim(),
    view: (await readFile(join(dataDir.path, 'view-token'), 'utf8')).trim(),
  };
  const client = new TandemClient(server.url, { token: tokens.control, name: 'setup' });
  await client.ready();
  const sessionId = (await client.request('session:create', { cwd: project.path, title })).session.id;
  client.close();
  return {
    fake,
    server,
    dataDir,
    project,
    tokens,
    sessionId,
    modelEnv,
    async close() {
      await server.close();
      await fake.close();
      await dataDir.cleanup();
      await project.cleanup();
    },
  };
}

/** Every persisted event of the session, as a fresh viewer replays them. */
export async function sessionEvents(fixture: ServerFixture): Promise<Array<{ type: string; text?: string; by?: string }>> {
  const client = new TandemClient(fixture.server.url, { token: fixture.tokens.view, name: 'test-probe' });
  try {
    await client.ready();
    const events: unknown[] = [];
    client.subscribe((signal) => {
      if (signal.kind === 'event') events.push(signal.event);
    });
    await client.attach(fixture.sessionId, 'viewer');
    return events as Array<{ type: string; text?: string; by?: string }>;
  } finally {
    client.close();
  }
}

/**
 * Attaches two terminals to the fixture's session in tmux and waits until both show it idle:
 * `driver` (ana, with the control token; `driverEnv` added to its environment) and `viewer`
 * (bo, watching with the server's data directory).
 */
export async function attachDriverAndViewer(tmux: Tmux, fixture: ServerFixture, driverEnv: Record<string, string> = {}): Promise<void> {
  const { server, sessionId, tokens, dataDir } = fixture;
  tmux.start('driver', tandemShellLine(['attach', sessionId, '--url', server.url, '--token', tokens.control, '--name', 'ana']), driverEnv);
  tmux.start('viewer', tandemShellLine(['attach', sessionId, '--url', server.url, '--viewer', '--data-dir', dataDir.path, '--name', 'bo']));
  await tmux.waitFor('driver', (s) => /driver │ .*idle/.test(s), 180_000);
  await tmux.waitFor('viewer', (s) => /viewer │ .*idle/.test(s), 180_000);
}
