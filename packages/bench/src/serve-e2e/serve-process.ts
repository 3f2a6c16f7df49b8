import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { serverNodeFlags } from '@tandem/server';

/** The repository root (this file sits in packages/bench/{src,dist}/serve-e2e). */
export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export const BENCH_TOKEN = 'bench-control-token-0123';

export interface ServeProcessOptions {
  /** OpenAI-compatible base URL of the scripted model server. */
  openaiBaseURL: string;
  /** Run packages/cli/src through tsx instead of the built dist (measures uncommitted source). */
  fromSource?: boolean;
  /** Write a V8 CPU profile of the server into this directory when it exits. */
  cpuProfDir?: string;
  /** More environment, last (e.g. an Anthropic model: TANDEM_MODEL, ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY). */
  env?: Record<string, string>;
}

export interface ServeProcess {
  url: string;
  pid: number;
  workspace: string;
  /** Its data directory (server.json, tokens) and HOME, for clients started beside it. */
  dataDir: string;
  home: string;
  stop(): Promise<void>;
}

/**
 * `tandem serve` as a user runs it, in its own process, with the server's V8 flags: a fresh data
 * directory (event log on disk, audit log, guards on), a throwaway HOME, the openai provider
 * pointed at the fake server.
 * Only the rate limit and the identical-call cooldown are lifted (config.json), or a 200-call
 * turn would wait for minutes; the checks themselves still run on every call.
 */
export async function startServeProcess(options: ServeProcessOptions): Promise<ServeProcess> {
  const root = await mkdtemp(join(tmpdir(), 'tandem-bench-serve-'));
  const dataDir = join(root, 'data');
  const home = join(root, 'home');
  const workspace = join(root, 'workspace');
  await Promise.all([mkdir(dataDir, { recursive: true }), mkdir(home), mkdir(workspace)]);
  await writeFile(join(workspace, 'note.txt'), 'first line\nsecond line\nthird line\n');
  await writeFile(join(dataDir, 'config.json'), JSON.stringify({ maxIterations: 1000, toolCallsPerMinute: 10_000, identicalCallCooldownMs: 0 }));
  const cli = options.fromSource
    ? ['--conditions=tandem-source', '--import', 'tsx', join(REPO_ROOT, 'packages/cli/src/main.ts')]
    : [join(REPO_ROOT, 'packages/cli/dist/main.js')];
  const prof = options.cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfDir] : [];
  // The V8 flags a user's server runs with (the launcher and the background server pass them).
  const flags = serverNodeFlags([], '');
  const child = spawn(process.execPath, [...flags, ...prof, ...cli, 'serve', '--port', '0', '--data-dir', dataDir], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      HOME: home,
      TANDEM_DATA_DIR: dataDir,
      TANDEM_TOKEN: BENCH_TOKEN,
      TANDEM_VIEW_TOKEN: 'bench-view-token-0123',
      OPENAI_BASE_URL: options.openaiBaseURL,
      OPENAI_API_KEY: 'sk-bench-0123456789abcdefghijklmnop',
      TANDEM_MODEL: 'openai/bench-model',
      NODE_ENV: 'production',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const url = await listeningUrl(child, () => stderr);
  return {
    url,
    pid: child.pid!,
    workspace,
    dataDir,
    home,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(root, { recursive: true, force: true });
    },
  };
}

function listeningUrl(child: ChildProcess, stderr: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const m = /^tandem listening on (\S+)/.exec(line);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`tandem serve exited (${code}) before listening: ${stderr()}`)));
  });
}
