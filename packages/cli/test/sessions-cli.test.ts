import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runServe, type RunningServer } from '@tandem/server';
import { makeTempDir, startFakeModelServer, type FakeModelServer, type TempDir } from '@tandem/testkit';
import { TandemClient } from '@tandem/tui';
import { runBuilt } from './built-cli.js';

/**
 * `tandem ls` and `tandem rm` through the built CLI against a real server (in this process, on a
 * free port, found through the data dir's server.json as the CLI finds any local server), and
 * how the CLI answers bad usage. Never `tandem stop` here: the recorded pid is this process.
 */
let fake: FakeModelServer;
let data: TempDir;
let root: TempDir;
let server: RunningServer;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  fake = await startFakeModelServer();
  data = await makeTempDir('tandem-ls-data-');
  root = await makeTempDir('tandem-ls-projects-');
  env = { TANDEM_DATA_DIR: data.path, OPENAI_API_KEY: 'ls-test-key', OPENAI_BASE_URL: fake.openaiBaseURL };
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  server = await runServe({
    host: '127.0.0.1',
    port: 0,
    dataDir: data.path,
    env: { ...process.env, ...env, TANDEM_TOKEN: '', TANDEM_VIEW_TOKEN: '' },
    handleSignals: false,
    stdout: sink,
  });
}, 240_000);

afterAll(async () => {
  await server?.close();
  await fake?.close();
  await data?.cleanup();
  await root?.cleanup();
});

const tandem = (args: string[], cwd = root.path) => runBuilt(args, { env, cwd });

async function driver(): Promise<TandemClient> {
  const client = new TandemClient(server.url, { token: (await readFile(join(data.path, 'token'), 'utf8')).trim(), name: 'ana' });
  await client.ready(60_000);
  return client;
}

describe('tandem ls and rm', () => {
  it('lists folder, status, model, mode and attached clients; rm is refused while a turn runs, then deletes', async () => {
    const [web, api] = [join(root.path, 'web'), join(root.path, 'api')];
    await mkdir(web);
    await mkdir(api);
    const ana = await driver();
    const bob = await driver();
    try {
      const first = (await ana.request('session:create', { cwd: web, model: 'openai/fake-a', title: 'web work' })).session;
      const second = (await bob.request('session:create', { cwd: api, model: 'openai/fake-b', title: 'api work' })).session;
      await bob.attach(second.id, 'driver');
      await bob.request('session:configure', { sessionId: second.id, mode: 'read-only' });

      const listed = await tandem(['ls']);
      expect(listed.stderr).toBe('');
      expect(listed.code).toBe(0);
      const lines = listed.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^ID +FOLDER +STATUS +MODEL +MODE +CLIENTS +TITLE$/);
      expect(lines.find((l) => l.startsWith(second.id))).toMatch(new RegExp(`^${second.id} +${api} +idle +openai/fake-b +read-only +1 +api work$`));
      expect(lines.find((l) => l.startsWith(first.id))).toMatch(new RegExp(`^${first.id} +${web} +idle +openai/fake-a +ask +0 +web work$`));
      expect(listed.stdout.split('\n').some((line) => / $/.test(line))).toBe(false);

      fake.enqueue({ hang: true });
      await bob.request('session:send', { sessionId: second.id, text: 'hang' });
      while (fake.pending() > 0) await new Promise((resolve) => setImmediate(resolve));
      const refused = await tandem(['rm', second.id.slice(0, 8)]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(
        `tandem: session ${second.id.slice(0, 8)} (api work) is running a turn; cancel it or wait for it to end, then run \`tandem rm\` again\n`,
      );
      await bob.request('session:cancel', { sessionId: second.id });
      while ((await bob.request('session:list', {})).sessions.find((s) => s.id === second.id)?.status !== 'idle') {
        await new Promise((resolve) => setImmediate(resolve));
      }

      const removed = await tandem(['rm', second.id.slice(0, 8)]);
      expect(removed.stderr).toBe('');
      expect(removed).toMatchObject({ code: 0, stdout: `deleted session ${second.id} (api work, ${api})\n` });
      await expect(stat(join(data.path, 'sessions', second.id))).rejects.toThrow(/ENOENT/);
      const after = await tandem(['ls', '--json']);
      expect((JSON.parse(after.stdout) as Array<{ id: string }>).map((s) => s.id)).toEqual([first.id]);
      const missing = await tandem(['rm', 'nosuch']);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('no session "nosuch"');
    } finally {
      ana.close();
      bob.close();
    }
  }, 480_000);
});

describe('tandem usage', () => {
  it('has help and help CMD, says what is wrong with bad input, exits non-zero, and lists permissions by default', async () => {
    const [help, helpStop, unknown, portWord, portBig, badModel, permissions, extra] = await Promise.all([
      tandem(['help']),
      tandem(['help', 'stop']),
      tandem(['sttaus']),
      tandem(['serve', '--port', 'abc']),
      tandem(['serve', '--port', '99999']),
      tandem(['--model', 'gpt-4.1']),
      tandem(['permissions']),
      tandem(['stop', 'now']),
    ]);
    expect(help.code).toBe(0);
    for (const command of ['attach', 'ls', 'rm', 'status', 'stop', 'restart', 'serve', 'permissions', 'audit', 'models', 'memory', 'help']) {
      expect(help.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
    expect(help.stdout).toContain('--cwd <dir>');
    expect(help.stdout).toContain('--model <provider/model>');
    expect(helpStop).toMatchObject({ code: 0 });
    expect(helpStop.stdout).toMatch(/^Usage: tandem stop \[options\]/);
    expect(helpStop.stdout).toContain('--force');

    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('tandem: unknown command "sttaus" (did you mean `tandem status`?); `tandem help` lists the commands\n');
    for (const [run, value] of [
      [portWord, 'abc'],
      [portBig, '99999'],
    ] as const) {
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain(`argument '${value}' is invalid. expected a port number 0..65535, got "${value}"`);
    }
    expect(badModel.code).not.toBe(0);
    expect(badModel.stderr).toContain('expected provider/model, e.g. openai/gpt-4.1-mini');
    expect(permissions).toMatchObject({ code: 0 });
    expect(permissions.stdout).toMatch(/no stored permissions/);
    expect(extra.code).not.toBe(0);
    expect(extra.stderr).toContain("too many arguments for 'stop'");
    for (const run of [help, helpStop]) expect(run.stdout.split('\n').some((line) => / $/.test(line))).toBe(false);
  }, 480_000);
});
