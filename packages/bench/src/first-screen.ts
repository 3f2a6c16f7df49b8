import { spawn } from 'node:child_process';
import { join } from 'node:path';
import * as pty from 'node-pty';
import { startFakeModelServer } from '@tandem/testkit';
import type { BenchOptions } from './bench-options.js';
import { procStats } from './serve-e2e/proc-stats.js';
import { BENCH_TOKEN, REPO_ROOT, startServeProcess } from './serve-e2e/serve-process.js';
import { fmt, median } from './stats.js';
import { printTable } from './table.js';

interface StartFigures {
  ms: number;
  cpuMs: number;
}

/** Runs `args` under node in a pty until its screen shows `ready`; wall time from spawn, and the process's CPU time then. */
function untilScreen(args: string[], cwd: string, env: NodeJS.ProcessEnv, ready: (screen: string) => boolean): Promise<StartFigures> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = pty.spawn(process.execPath, args, { cols: 120, rows: 40, cwd, env: env as Record<string, string> });
    let screen = '';
    let done = false;
    const timer = setTimeout(() => finish(new Error(`no first screen within 60 s: ${screen.slice(-400)}`)), 60_000);
    const finish = (error?: Error, figures?: StartFigures) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      if (error) reject(error);
      else resolve(figures!);
    };
    child.onData((data) => {
      screen += data;
      if (done || !ready(screen)) return;
      const ms = performance.now() - started;
      procStats(child.pid).then(
        (stats) => finish(undefined, { ms, cpuMs: stats.cpuMs }),
        (err: unknown) => finish(err as Error),
      );
    });
    child.onExit(({ exitCode }) => finish(new Error(`exited (${exitCode}) before its first screen: ${screen.slice(-400)}`)));
  });
}

/** Runs `args` under node until a stdout line matches `ready`; wall time from spawn, and its CPU time then. */
function untilLine(args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<StartFigures> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let done = false;
    const finish = (error?: Error, figures?: StartFigures) => {
      if (done) return;
      done = true;
      child.kill('SIGKILL');
      if (error) reject(error);
      else resolve(figures!);
    };
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (done || !ready.test(out)) return;
      const ms = performance.now() - started;
      procStats(child.pid!).then(
        (stats) => finish(undefined, { ms, cpuMs: stats.cpuMs }),
        (err: unknown) => finish(err as Error),
      );
    });
    child.stderr.resume();
    child.on('exit', (code) => finish(new Error(`exited (${code}) before ${ready}: ${out.slice(-400)}`)));
  });
}

/**
 * "Start-up" of the shared path: `tandem` (the TUI) to its first screen when the server already
 * runs — reaching the server, picking the folder's session, attaching, drawing — beside a bare
 * node process that loads blessed and draws one screen; and `tandem serve` to its listening line
 * beside a bare socket.io server process. Interleaved runs, medians; wall and CPU time of the
 * measured process (the TUI's server works in its own process meanwhile).
 */
export async function benchFirstScreen(options: BenchOptions): Promise<void> {
  const runs = options.quick ? 5 : 11;
  const fake = await startFakeModelServer();
  const server = await startServeProcess({ openaiBaseURL: fake.openaiBaseURL });
  const env = { ...process.env, TERM: 'xterm-256color', TANDEM_DATA_DIR: server.dataDir, HOME: server.home, TANDEM_TOKEN: BENCH_TOKEN, NO_COLOR: '1' };
  const tandemArgs = [join(REPO_ROOT, 'packages/cli/dist/main.js')];
  const bareArgs = [join(REPO_ROOT, 'packages/bench/dist/bare-screen-main.js')];
  const statusShown = (screen: string) => screen.includes('driver') && screen.includes('idle');
  const tui: StartFigures[] = [];
  const bare: StartFigures[] = [];
  const serve: StartFigures[] = [];
  const bareServer: StartFigures[] = [];
  const serveEnv = {
    ...process.env,
    HOME: server.home,
    TANDEM_TOKEN: BENCH_TOKEN,
    TANDEM_VIEW_TOKEN: 'bench-view-token-0123',
    OPENAI_API_KEY: 'sk-bench',
    NODE_ENV: 'production',
  };
  try {
    // Unmeasured: creates the folder's session, warms the disk cache.
    await untilScreen(tandemArgs, server.workspace, env, statusShown);
    for (let i = 0; i < runs; i++) {
      const pair = [
        async () => tui.push(await untilScreen(tandemArgs, server.workspace, env, statusShown)),
        async () => bare.push(await untilScreen(bareArgs, server.workspace, env, statusShown)),
      ];
      for (const run of i % 2 === 0 ? pair : pair.reverse()) await run();
      const dataDir = join(server.home, `serve-${i}`);
      const servePair = [
        async () => serve.push(await untilLine([...tandemArgs, 'serve', '--port', '0', '--data-dir', dataDir], serveEnv, /^tandem listening on /m)),
        async () => bareServer.push(await untilLine([join(REPO_ROOT, 'packages/bench/dist/bare-server-main.js')], serveEnv, /^listening on /m)),
      ];
      for (const run of i % 2 === 0 ? servePair : servePair.reverse()) await run();
    }
  } finally {
    await server.stop();
    await fake.close();
  }
  const m = (xs: StartFigures[], key: keyof StartFigures) => median(xs.map((x) => x[key]));
  const row = (name: string, xs: StartFigures[]) => [name, fmt(m(xs, 'ms'), 0), fmt(m(xs, 'cpuMs'), 0), fmt(Math.min(...xs.map((x) => x.ms)), 0)];
  printTable(
    `Start-up: the first screen of \`tandem\` with the server running, and \`tandem serve\` to its listening line (median of ${runs} interleaved runs; goal: first screen ≤ 500 ms)`,
    ['process', 'wall ms', 'CPU ms', 'fastest ms'],
    [
      row('bare node + blessed, one screen (baseline)', bare),
      row('tandem: reach the server, pick the session, attach, draw', tui),
      ['ratio tandem / bare', fmt(m(tui, 'ms') / m(bare, 'ms')), fmt(m(tui, 'cpuMs') / m(bare, 'cpuMs')), ''],
      row('bare socket.io server to listening (baseline)', bareServer),
      row('tandem serve to its listening line', serve),
      ['ratio tandem serve / bare', fmt(m(serve, 'ms') / m(bareServer, 'ms')), fmt(m(serve, 'cpuMs') / m(bareServer, 'cpuMs')), ''],
    ],
  );
  console.log(`goal: tandem's first screen ≤ 500 ms with the server running — median ${fmt(m(tui, 'ms'), 0)} ms`);
}
