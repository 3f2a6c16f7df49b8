import { execFile } from 'node:child_process';
import { readFile, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionInfo } from '@tandem/shared';
import { readServerInfo, SERVER_NODE_FLAGS } from '@tandem/server';
import { makeTempDir, startFakeModelServer, type FakeModelServer, type TempDir } from '@tandem/testkit';
import { alive, runBuilt } from './built-cli.js';
import { shellQuote } from './cli-runner.js';
import { Tmux } from './tmux.js';

/**
 * A newcomer's first minutes: the set-up's launcher puts `tandem` on the PATH; `tandem` in a
 * project folder that is not Tandem's opens that folder's session (with --model), a second
 * terminal attaches as a viewer with plain `tandem attach --viewer`, and `tandem stop` ends it.
 */
const LAUNCHER = fileURLToPath(new URL('../../../scripts/install-launcher.sh', import.meta.url));
let fake: FakeModelServer;
let bin: TempDir;
let data: TempDir;
let project: TempDir;
let env: Record<string, string>;
const tmux = new Tmux();

beforeAll(async () => {
  fake = await startFakeModelServer();
  bin = await makeTempDir('tandem-bin-');
  data = await makeTempDir('tandem-anywhere-data-');
  project = await makeTempDir('my-project-');
  env = { TANDEM_DATA_DIR: data.path, OPENAI_API_KEY: 'anywhere-key', OPENAI_BASE_URL: fake.openaiBaseURL };
});

afterAll(async () => {
  tmux.kill();
  const info = await readServerInfo(data.path);
  if (info && alive(info.pid)) process.kill(info.pid, 'SIGKILL');
  await fake?.close();
  for (const dir of [bin, data, project]) await dir?.cleanup();
});

function installLauncher(binDir: string, path: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', [LAUNCHER], { env: { PATH: path, HOME: process.env.HOME, TANDEM_BIN_DIR: binDir } }, (err, _stdout, stderr) => {
      resolve({ code: err ? 1 : 0, stderr });
    });
  });
}

async function sessions(): Promise<SessionInfo[]> {
  const listed = await runBuilt(['ls', '--json'], { env, cwd: project.path });
  expect(listed.stderr).toBe('');
  return JSON.parse(listed.stdout) as SessionInfo[];
}

describe('tandem from any folder', () => {
  it('the launcher goes on the PATH, or says exactly what to add; a tandem it did not write is left alone', async () => {
    const path = process.env.PATH ?? '/usr/bin:/bin';
    const off = await installLauncher(bin.path, path);
    expect(off.code).toBe(0);
    expect(off.stderr).toContain(`installed ${bin.path}/tandem, but ${bin.path} is not on your PATH; add it: export PATH="${bin.path}:$PATH"`);
    const launcher = await readFile(join(bin.path, 'tandem'), 'utf8');
    expect(launcher).toContain(`'${fileURLToPath(new URL('../dist/main.js', import.meta.url))}'`);
    // `tandem serve` gets the server's V8 flags; the launcher writes them out in shell.
    for (const flag of SERVER_NODE_FLAGS) expect(launcher).toContain(`flags="$flags ${flag}"`);
    const on = await installLauncher(bin.path, `${bin.path}:${path}`);
    expect(on.stderr).toContain(`\`tandem\` is on your PATH (${bin.path}/tandem)`);

    await using other = await makeTempDir('tandem-other-bin-');
    await writeFile(join(other.path, 'tandem'), '#!/bin/sh\necho somebody else\n');
    const foreign = await installLauncher(other.path, path);
    expect(foreign.stderr).toContain('was not written by Tandem');
    expect(await readFile(join(other.path, 'tandem'), 'utf8')).toBe('#!/bin/sh\necho somebody else\n');
  }, 240_000);

  it("`tandem` in a project folder opens that folder's session; a second terminal attaches; `tandem stop` stops the server", async () => {
    const exports = Object.entries({ ...env, PATH: `${bin.path}:${process.env.PATH}` })
      .map(([key, value]) => `${key}=${shellQuote(value)}`)
      .join(' ');
    const shell = (line: string) => `cd ${shellQuote(project.path)} && export ${exports} && ${line}; echo "TANDEM EXITED $?"; sleep 600`;

    tmux.start('first', shell('tandem --port 0 --model openai/fake-b'));
    await tmux.waitFor('first', (s) => s.includes('openai/fake-b') && s.includes('driver'), 120_000);
    const [session] = await sessions();
    expect(session).toMatchObject({ cwd: await realpath(project.path), model: 'openai/fake-b', clients: 1 });

    tmux.start('second', shell('tandem attach --viewer'));
    await tmux.waitFor('second', (s) => s.includes('viewer') && s.includes('openai/fake-b'), 120_000);
    const both = await sessions();
    expect(both).toHaveLength(1);
    expect(both[0]).toMatchObject({ id: session!.id, clients: 2 });

    const info = (await readServerInfo(data.path))!;
    // The background server `tandem` started runs with the server's V8 flags.
    const serverArgs = (await readFile(`/proc/${info.pid}/cmdline`, 'utf8')).split('\0');
    for (const flag of SERVER_NODE_FLAGS) expect(serverArgs).toContain(flag);
    const stopped = await runBuilt(['stop'], { env, cwd: project.path });
    expect(stopped).toMatchObject({ code: 0, stdout: `stopped the tandem server at ${info.url} (pid ${info.pid})\n` });
    expect(alive(info.pid)).toBe(false);
  }, 480_000);
});
