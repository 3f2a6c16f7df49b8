import { readFile, readlink, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readServerInfo } from '@tandem/server';
import { makeTempDir, startFakeModelServer, type FakeModelServer, type TempDir } from '@tandem/testkit';
import { TandemClient } from '@tandem/tui';
import { alive, runBuilt } from './built-cli.js';

/**
 * The server's lifecycle through the built `tandem`: status, stop, restart (refused while a turn
 * runs unless --force), the provider-environment hint, ls and rm. The background server is the
 * real one the CLI starts (on a free port), its model the scripted fake.
 */
let fake: FakeModelServer;
let data: TempDir;
let project: TempDir;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  fake = await startFakeModelServer();
  data = await makeTempDir('tandem-life-data-');
  project = await makeTempDir('tandem-life-project-');
  env = { TANDEM_DATA_DIR: data.path, OPENAI_API_KEY: 'life-test-key', OPENAI_BASE_URL: fake.openaiBaseURL, TANDEM_MODEL: 'openai/fake-model' };
});

afterAll(async () => {
  const info = await readServerInfo(data.path);
  if (info && alive(info.pid)) process.kill(info.pid, 'SIGKILL');
  await fake?.close();
  await data?.cleanup();
  await project?.cleanup();
});

const tandem = (args: string[], extraEnv: NodeJS.ProcessEnv = {}) => runBuilt(args, { env: { ...env, ...extraEnv }, cwd: project.path });

/** A driver connection that starts a turn whose model request hangs (so a turn is running). */
async function hangingTurn(url: string): Promise<{ client: TandemClient; sessionId: string }> {
  const token = (await readFile(join(data.path, 'token'), 'utf8')).trim();
  const client = new TandemClient(url, { token, name: 'turn-runner' });
  await client.ready(60_000);
  const { session } = await client.request('session:create', { cwd: project.path, title: 'busy one' });
  await client.attach(session.id, 'driver');
  fake.enqueue({ hang: true });
  await client.request('session:send', { sessionId: session.id, text: 'wait for ever' });
  while (fake.pending() > 0) await new Promise((resolve) => setImmediate(resolve));
  return { client, sessionId: session.id };
}

function noTrailingSpaces(text: string): boolean {
  return !text.split('\n').some((line) => /[ \t]$/.test(line));
}

describe('tandem status / stop / restart', () => {
  it('reports, refuses to stop a running turn without --force, restarts on the same port with the new environment, and stops', async () => {
    const none = await tandem(['status']);
    expect(none.code).toBe(1);
    expect(none.stdout).toContain(`no tandem server is running for ${data.path}`);

    const started = await tandem(['restart', '--port', '0']);
    expect(started.stderr).toBe('');
    expect(started.code).toBe(0);
    expect(started.stdout).toMatch(/started one at http:\/\/127\.0\.0\.1:\d+ \(pid \d+\)/);
    const first = (await readServerInfo(data.path))!;
    expect(alive(first.pid)).toBe(true);
    // The background server does not hold the folder tandem was run in.
    expect(await readlink(`/proc/${first.pid}/cwd`)).toBe(homedir());

    // NO_COLOR wins even over FORCE_COLOR (colour on a terminal, off in a pipe: color.test.ts).
    const status = await tandem(['status'], { FORCE_COLOR: '1', NO_COLOR: '1' });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`running at ${first.url} (pid ${first.pid}, version `);
    expect(status.stdout).toMatch(/^sessions +0, none running a turn$/m);
    expect(status.stdout).toMatch(/^providers +openai \(have a key\)$/m);
    expect(status.stdout).toMatch(/^environment +same provider settings as this shell$/m);
    expect(status.stdout).not.toContain('life-test-key');
    expect(status.stdout).not.toContain('\u001b[');
    expect(noTrailingSpaces(status.stdout)).toBe(true);

    const json = JSON.parse((await tandem(['status', '--json'])).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ up: true, url: first.url, pid: first.pid, sessions: 0, running: 0, providers: ['openai'], envMatchesShell: true });

    // A key exported after the server started: tandem says so, names only.
    const newKey = { ANTHROPIC_API_KEY: 'exported-later' };
    const differs = await tandem(['status'], newKey);
    expect(differs.stdout).toMatch(
      /^environment +this shell's provider settings .* differ from the running server's \(a key for anthropic is set here, not in the server\); run `tandem restart` to use them$/m,
    );
    expect(differs.stdout).not.toContain('exported-later');

    const { client, sessionId } = await hangingTurn(first.url);
    try {
      const refusals = await Promise.all(['stop', 'restart'].map(async (verb) => ({ verb, refused: await tandem([verb], newKey) })));
      for (const { verb, refused } of refusals) {
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain(
          `not ${verb === 'stop' ? 'stopping' : 'restarting'}: a turn is running in ${sessionId.slice(0, 8)} (busy one, ${project.path}`,
        );
        expect(refused.stderr).toContain(`tandem ${verb} --force`);
        expect(alive(first.pid)).toBe(true);
      }

      const restarted = await tandem(['restart', '--force'], newKey);
      expect(restarted.code).toBe(0);
      expect(restarted.stderr).toContain(`these turns end as interrupted: ${sessionId.slice(0, 8)}`);
      expect(restarted.stdout).toContain(`restarted the tandem server: ${first.url} (pid `);
    } finally {
      client.close();
    }
    expect(alive(first.pid)).toBe(false);
    const second = (await readServerInfo(data.path))!;
    expect(second.url).toBe(first.url);
    expect(second.pid).not.toBe(first.pid);
    const after = await tandem(['status'], newKey);
    expect(after.stdout).toMatch(/^providers +openai, anthropic \(have a key\)$/m);
    expect(after.stdout).toMatch(/^environment +same provider settings as this shell$/m);
    expect(after.stdout).toMatch(/^sessions +1, none running a turn$/m);

    const stopped = await tandem(['stop']);
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toBe(`stopped the tandem server at ${second.url} (pid ${second.pid})\n`);
    expect(alive(second.pid)).toBe(false);
    await expect(stat(join(data.path, 'server.json'))).rejects.toThrow(/ENOENT/);
  }, 600_000);
});
