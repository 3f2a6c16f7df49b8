import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FakeModelServer, makeTempDir, startFakeModelServer, type TempDir } from '@tandem/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, shellQuote } from './cli-runner.js';
import { Tmux } from './tmux.js';

// Install without a checkout: `pnpm pack` in packages/cli makes one tarball (the workspace
// packages bundled in), `npm install -g` puts it in a fresh prefix, and the installed `tandem`
// runs with the monorepo hidden (bubblewrap mounts an empty folder over it), so nothing it does
// can reach the checkout. The commands checked are one table: adding one is one line.

const CLI_DIR = fileURLToPath(new URL('..', import.meta.url));
const VERSION = (JSON.parse(readFileSync(join(CLI_DIR, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * Commands run from the installed package (in `work`, with the scripted model behind them);
 * `reply` is what the scripted model answers, for a command that runs a turn.
 */
const CHECKS: Array<{ args: string[]; stdout: RegExp; reply?: string }> = [
  { args: ['--version'], stdout: new RegExp(`^${VERSION.replace(/\./g, '\\.')}\\n$`) },
  { args: ['completion', 'bash'], stdout: /complete -F _tandem_complete tandem/ },
  // One turn without the TUI: starts the server in the background, stdout is only the answer.
  { args: ['run', 'say hello'], reply: 'Hello from the tarball.', stdout: /^Hello from the tarball\.\n$/ },
];

let scratch: TempDir;
let fake: FakeModelServer;
let prefix: string;
let work: string;
let dataDir: string;
const tmux = new Tmux();

/** `tandem ARGS` from the prefix, the checkout hidden when bubblewrap is there (CI installs it). */
function installed(args: string[]): string[] {
  const bin = join(prefix, 'bin', 'tandem');
  const hide = existsSync('/usr/bin/bwrap') ? ['bwrap', '--dev-bind', '/', '/', '--tmpfs', REPO_ROOT.replace(/\/$/, ''), '--chdir', work] : [];
  return [...hide, bin, ...args];
}

function env(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: scratch.path,
    TANDEM_DATA_DIR: dataDir,
    TANDEM_MODEL: 'openai/gpt-4.1-mini',
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: fake.openaiBaseURL,
  };
}

function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const [file, ...args] = argv as [string, ...string[]];
    const child = execFile(file, args, { cwd: work, env: env(), timeout: 300_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
    // As a script runs it: stdin an empty pipe (tandem run reads stdin when it is no terminal).
    child.stdin?.end();
  });
}

beforeAll(async () => {
  scratch = await makeTempDir('tandem-pack-');
  fake = await startFakeModelServer();
  prefix = join(scratch.path, 'prefix');
  work = join(scratch.path, 'work');
  dataDir = join(scratch.path, 'data');
  mkdirSync(work);
  writeFileSync(join(work, 'README.md'), '# a project\n');
  execFileSync('pnpm', ['pack', '--out', join(scratch.path, 'tandem-%v.tgz')], { cwd: CLI_DIR, stdio: 'pipe' });
  const tarball = join(scratch.path, `tandem-${VERSION}.tgz`);
  // node-pty compiles from source; on machines without Node's headers to download, from /usr's.
  const nodedir = existsSync('/usr/include/node/common.gypi') ? { npm_config_nodedir: '/usr' } : {};
  execFileSync('npm', ['install', '-g', '--allow-scripts=node-pty', '--prefix', prefix, tarball], {
    cwd: scratch.path,
    env: { ...process.env, ...nodedir, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
    stdio: 'pipe',
    timeout: 900_000,
  });
}, 1_200_000);

afterAll(async () => {
  tmux.kill();
  if (prefix) await run(installed(['stop', '--data-dir', dataDir, '--force']));
  await fake?.close();
  await scratch?.cleanup();
});

describe('tandem installed from the packed tarball, away from the checkout', () => {
  it('installed only public npm packages beside the bundle, and the native pty built', () => {
    const modules = join(prefix, 'lib', 'node_modules');
    expect(readdirSync(join(modules, '@tandem'))).toEqual(['cli']);
    const own = join(modules, '@tandem', 'cli');
    expect(existsSync(join(own, 'node_modules', '@tandem'))).toBe(false);
    expect(existsSync(join(own, 'node_modules', 'node-pty', 'build', 'Release', 'pty.node'))).toBe(true);
    expect(existsSync(join(own, 'web', 'index.html'))).toBe(true);
    expect(readFileSync(join(own, 'bundle', 'tandem.js'), 'utf8')).not.toContain(REPO_ROOT);
  });

  for (const check of CHECKS) {
    it(`tandem ${check.args.join(' ')}`, async () => {
      if (check.reply !== undefined) fake.enqueue({ text: check.reply });
      const result = await run(installed(check.args));
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(check.stdout);
    }, 600_000);
  }

  it('tandem opens the TUI (starting the server in the background) and a turn answers', async () => {
    const line = `cd ${shellQuote(work)} && ${installed(['--name', 'ivy']).map(shellQuote).join(' ')}; echo "TANDEM EXITED $?"; sleep 600`;
    tmux.start('installed', line, env() as Record<string, string>);
    await tmux.waitFor('installed', (s) => /driver │ idle/.test(s), 300_000);
    fake.enqueue({ text: 'Installed and answering.' });
    tmux.type('installed', 'are you there?', 'Enter');
    await tmux.waitFor('installed', (s) => s.includes('Installed and answering.') && /driver │ idle/.test(s));
    tmux.type('installed', '', 'C-c', 'C-c');
    await tmux.waitFor('installed', 'TANDEM EXITED 0');
    // The web viewer's page is served from the package.
    const info = JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as { url: string };
    const page = await fetch(info.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Tandem</title>');
  }, 600_000);
});
