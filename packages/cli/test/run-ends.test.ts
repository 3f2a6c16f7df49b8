import { readServerInfo } from '@tandem/server';
import { makeTempDir, startFakeModelServer, type FakeModelServer, type TempDir } from '@tandem/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { alive } from './built-cli.js';
import { HeadlessCli, runCli } from './headless-cli.js';
import { startServerFixture } from './server-fixture.js';

// The ends of a headless run that need a server of their own: a permission nobody answers (a
// short permission timeout), and a server that dies mid-turn (a background server the run
// itself started, then killed).

describe('tandem run: a permission nobody answers', () => {
  it('is denied at the timeout: a line naming the call, exit 3', async () => {
    const fixture = await startServerFixture('timeout', { permissionTimeoutMs: 1000 });
    try {
      fixture.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'touch never-made.txt' } }] });
      const result = await runCli(
        ['run', '--quiet', '--url', fixture.server.url, '--token', fixture.tokens.control, '--cwd', fixture.project.path, 'make a file'],
        { env: { NO_COLOR: '1' }, cwd: fixture.project.path },
      );
      expect(result.code).toBe(3);
      expect(result.stdout).toBe('');
      // --quiet keeps the line that explains the exit status, and the closing sentence.
      expect(result.stderr).toContain('tandem: permission for run_command touch never-made.txt was not answered in time: denied');
      expect(result.stderr).toMatch(/permission request timed out after 1 s \(automatic deny\); the turn stopped/);
      expect(result.stderr).not.toContain('waiting for permission');
    } finally {
      await fixture.close();
    }
  });
});

describe('tandem run: the server dies during the turn', () => {
  let fake: FakeModelServer | undefined;
  let data: TempDir | undefined;
  let project: TempDir | undefined;

  afterAll(async () => {
    const info = data ? await readServerInfo(data.path) : undefined;
    if (info && alive(info.pid)) process.kill(info.pid, 'SIGKILL');
    await fake?.close();
    await data?.cleanup();
    await project?.cleanup();
  });

  it('starts a local server in the background when none runs, and ends with exit 1 and a sentence when it dies', async () => {
    fake = await startFakeModelServer();
    data = await makeTempDir('tandem-run-dies-data-');
    project = await makeTempDir('tandem-run-dies-project-');
    fake.enqueue({ hang: true });
    const env = { OPENAI_API_KEY: 'run-test-key', OPENAI_BASE_URL: fake.openaiBaseURL, TANDEM_MODEL: 'openai/fake-model', NO_COLOR: '1' };
    const cli = new HeadlessCli(['run', '--data-dir', data.path, '--port', '0', '--output-format', 'stream-json', 'wait for ever'], { env, cwd: project.path });
    await cli.waitFor('"type":"turn_started"', 'stdout');
    expect(cli.stderr).toContain('started a server in the background');
    const info = (await readServerInfo(data.path))!;
    process.kill(info.pid, 'SIGKILL');
    const result = await cli.output;
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout.trim().split('\n').at(-1)!)).toMatchObject({ type: 'result', stopReason: 'disconnected', isError: true });
    expect(result.stderr).toMatch(/tandem: the tandem server at http:\/\/127\.0\.0\.1:\d+ stopped \(its process exited\) before the turn ended/);
  });
});
