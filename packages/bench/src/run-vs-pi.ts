import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readServerInfo } from '@tandem/server';
import { startFakeModelServer } from '@tandem/testkit';
import type { BenchOptions } from './bench-options.js';
import { modelsJson, piCommand } from './serve-e2e/pi-process.js';
import { REPO_ROOT } from './serve-e2e/serve-process.js';
import { fmt, median } from './stats.js';
import { printTable } from './table.js';

const ANSWER = 'Hello from the scripted model.';

interface Run {
  ms: number;
  stdout: string;
  stderr: string;
  code: number | null;
}

/** Runs a command to its end, timing spawn → exit (what a script waits for). */
function timed(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ ms: performance.now() - started, stdout, stderr, code }));
  });
}

function answered(what: string, run: Run): number {
  if (run.code !== 0 || !run.stdout.includes(ANSWER)) {
    throw new Error(`${what} did not answer (exit ${run.code}): ${run.stderr.slice(-800)}${run.stdout.slice(-400)}`);
  }
  return run.ms;
}

/** Stops the background server a cold run started, and waits until its process is gone. */
async function stopBackground(dataDir: string): Promise<void> {
  const info = await readServerInfo(dataDir);
  if (!info) return;
  process.kill(info.pid, 'SIGTERM');
  for (;;) {
    try {
      process.kill(info.pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * `tandem run "hi"` as a script runs it (a fresh CLI process each time, spawn → exit), with the
 * local server already running (warm) and with none (cold: the run starts one in the background),
 * beside `pi -p "hi"` (`--pi PATH`) against the same scripted model, interleaved in one run.
 * Goals (issue 30): warm ≤ 0.5 s and below pi -p; cold ≤ 1.5× pi -p.
 */
export async function benchRunVsPi(options: BenchOptions): Promise<void> {
  const runs = options.runs ?? (options.quick ? 3 : 7);
  if (runs === 0) return;
  const fake = await startFakeModelServer();
  fake.setHandler(() => ({ text: ANSWER }));
  const root = await mkdtemp(join(tmpdir(), 'tandem-bench-run-'));
  const warmData = join(root, 'warm-data');
  const coldData = join(root, 'cold-data');
  const home = join(root, 'home');
  const workspace = join(root, 'workspace');
  const piAgent = join(root, 'pi-agent');
  await Promise.all([warmData, coldData, home, workspace, piAgent].map((dir) => mkdir(dir, { recursive: true })));
  await writeFile(join(piAgent, 'models.json'), JSON.stringify(modelsJson(fake.openaiBaseURL)));
  const { TANDEM_TOKEN: _t, TANDEM_VIEW_TOKEN: _v, TANDEM_DATA_DIR: _d, ...inherited } = process.env;
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    HOME: home,
    NO_COLOR: '1',
    OPENAI_BASE_URL: fake.openaiBaseURL,
    OPENAI_API_KEY: 'sk-bench-0123456789abcdefghijklmnop',
    TANDEM_MODEL: 'openai/gpt-4.1-mini',
  };
  const cli = options.fromSource
    ? ['--conditions=tandem-source', '--import', 'tsx', join(REPO_ROOT, 'packages/cli/src/main.ts')]
    : [join(REPO_ROOT, 'packages/cli/dist/main.js')];
  const tandem = (dataDir: string) =>
    timed(process.execPath, [...cli, 'run', '--data-dir', dataDir, '--port', '0', '--cwd', workspace, '--quiet', 'hi'], { cwd: workspace, env });
  const pi = options.piCli ? await piCommand(options.piCli) : undefined;
  const piEnv: NodeJS.ProcessEnv = { ...env, PI_CODING_AGENT_DIR: piAgent, PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1', PI_TELEMETRY: '0' };
  const runPi = () =>
    timed(pi![0]!, [...pi!.slice(1), '-p', 'hi', '--provider', 'bench', '--model', 'bench-model', '--offline'], { cwd: workspace, env: piEnv });

  const warm: number[] = [];
  const cold: number[] = [];
  const piTimes: number[] = [];
  try {
    // Unmeasured: start the warm server (and let each tool touch its files once).
    answered('tandem run (starting the warm server)', await tandem(warmData));
    answered('tandem run (cold, unmeasured)', await tandem(coldData));
    await stopBackground(coldData);
    if (pi) answered('pi -p (unmeasured)', await runPi());
    for (let run = 0; run < runs; run++) {
      const order = run % 2 === 0 ? (['warm', 'pi', 'cold'] as const) : (['cold', 'pi', 'warm'] as const);
      for (const path of order) {
        if (path === 'warm') warm.push(answered('tandem run (warm)', await tandem(warmData)));
        else if (path === 'cold') {
          cold.push(answered('tandem run (cold)', await tandem(coldData)));
          await stopBackground(coldData);
        } else if (pi) piTimes.push(answered('pi -p', await runPi()));
      }
    }
  } finally {
    await stopBackground(warmData).catch(() => undefined);
    await stopBackground(coldData).catch(() => undefined);
    await fake.close();
    await rm(root, { recursive: true, force: true });
  }

  const piMedian = piTimes.length > 0 ? median(piTimes) : Number.NaN;
  const row = (label: string, times: number[]) => [
    label,
    fmt(median(times), 0),
    fmt(Math.min(...times), 0),
    fmt(Math.max(...times), 0),
    piTimes.length > 0 ? fmt(median(times) / piMedian, 2) : '—',
  ];
  printTable(
    `tandem run "hi" vs pi -p "hi": wall time of one CLI process, spawn → exit (ms; ${runs} runs interleaved; scripted model on loopback)`,
    ['path', 'median', 'min', 'max', 'ratio / pi -p'],
    [
      row('tandem run, local server running (warm)', warm),
      row('tandem run, no server (cold: starts one in the background)', cold),
      ...(piTimes.length > 0 ? [row('pi -p (@mariozechner/pi-coding-agent)', piTimes)] : []),
    ],
  );
  if (piTimes.length === 0) console.log('pi -p not measured: pass --pi PATH_TO_PI_CLI (npm i @mariozechner/pi-coding-agent, then node_modules/.bin/pi)');
  console.log('goals: warm ≤ 500 ms and below pi -p; cold ≤ 1.5 × pi -p');
}
