import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pty from 'node-pty';
import { OsSandbox, PtyCommandRunner } from '@tandem/server';
import { fmt, median } from './stats.js';
import { printTable } from './table.js';

const TRIVIAL = 'true';
const LATENCY_RUNS = 40;
/** 10 MB runs per path: single runs of every path swung by 2-3x on this machine (21 runs of node-pty alone: 21-69 MB/s), so medians of many. */
const THROUGHPUT_RUNS = 15;
const TEN_MB = 10 * 1024 * 1024;
const PRINT_10MB = `yes 0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvw | head -c ${TEN_MB}`;

/** Baseline: plain child_process.spawn of the same shell, stdout collected. */
function spawnRun(command: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/bash', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'] });
    let bytes = 0;
    child.stdout.on('data', (chunk: Buffer) => (bytes += chunk.length));
    child.on('error', reject);
    child.on('close', () => resolve(bytes));
  });
}

/** Second baseline: node-pty alone, to separate the pty's own cost from Tandem's. */
function rawPtyRun(command: string): Promise<number> {
  return new Promise((resolve) => {
    const proc = pty.spawn('/bin/bash', ['-c', command], { name: 'dumb', cols: 160, rows: 48, cwd: tmpdir(), env: process.env as Record<string, string> });
    let bytes = 0;
    proc.onData((chunk) => (bytes += chunk.length));
    proc.onExit(() => resolve(bytes));
  });
}

async function timeIt(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/** Wall time and this process's CPU time (all its threads), in ms. */
async function timeAndCpu(fn: () => Promise<unknown>): Promise<{ ms: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const ms = await timeIt(fn);
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000 };
}

export async function benchPtyVsSpawn(): Promise<void> {
  const logDir = await mkdtemp(join(tmpdir(), 'tandem-bench-pty-'));
  // The same OS sandbox the server puts around every command (probed here as at server start).
  const osSandbox = new OsSandbox({ home: homedir(), dataDir: join(logDir, 'data') });
  const sandbox = osSandbox.wrapperFor(() => [logDir]);
  const runner = new PtyCommandRunner({ logDir });
  const sandboxed = sandbox ? new PtyCommandRunner({ logDir, sandbox }) : undefined;
  let n = 0;
  // Tandem's path: a pty per command, its own process group, coalesced live output, a log file.
  const through = (r: PtyCommandRunner) => async (command: string) => {
    let bytes = 0;
    await r.run({
      command,
      cwd: logDir,
      timeoutMs: 120_000,
      signal: new AbortController().signal,
      callId: `bench-${n++}`,
      sessionId: 'bench',
      onData: (chunk) => (bytes += chunk.length),
    });
    return bytes;
  };
  try {
    const paths: Record<string, (command: string) => Promise<number>> = {
      tandem: through(runner),
      ...(sandboxed ? { sandboxed: through(sandboxed) } : {}),
      rawPty: rawPtyRun,
      spawn: spawnRun,
    };
    const latency: Record<string, number[]> = Object.fromEntries(Object.keys(paths).map((k) => [k, []]));
    const throughput: Record<string, number[]> = Object.fromEntries(Object.keys(paths).map((k) => [k, []]));
    const cpu: Record<string, number[]> = Object.fromEntries(Object.keys(paths).map((k) => [k, []]));
    // Interleaved, so a busy moment of the machine lands on every path alike, and in an order
    // that turns each round: a path that runs right after another pays for that one's garbage
    // (spawn's 10 MB of buffers cost the next path ~60 ms of CPU), so every path takes every place.
    const rounds = (i: number) => {
      const entries = Object.entries(paths);
      return [...entries.slice(i % entries.length), ...entries.slice(0, i % entries.length)];
    };
    for (let i = 0; i < LATENCY_RUNS; i++) {
      for (const [name, run] of rounds(i)) latency[name]!.push(await timeIt(() => run(TRIVIAL)));
    }
    for (let i = 0; i < THROUGHPUT_RUNS; i++) {
      for (const [name, run] of rounds(i)) {
        const { ms, cpuMs } = await timeAndCpu(() => run(PRINT_10MB));
        throughput[name]!.push(TEN_MB / 1024 / 1024 / (ms / 1000));
        cpu[name]!.push(cpuMs);
      }
    }
    const ms = (name: string) => (latency[name] ? median(latency[name]) : Number.NaN);
    const mbps = (name: string) => (throughput[name] ? median(throughput[name]) : Number.NaN);
    const cpuMs = (name: string) => (cpu[name] ? median(cpu[name]) : Number.NaN);
    // The four paths, then the four ratios the table compares.
    const row = (label: string, of: (name: string) => number, digits: number) => [
      label,
      ...['tandem', 'sandboxed', 'rawPty', 'spawn'].map((name) => fmt(of(name), digits)),
      ...[
        ['tandem', 'rawPty'],
        ['tandem', 'spawn'],
        ['sandboxed', 'tandem'],
        ['sandboxed', 'spawn'],
      ].map(([a, b]) => fmt(of(a!) / of(b!))),
    ];
    printTable(
      `run_command: Tandem pty path, the same in the OS sandbox (${osSandbox.describe()}), node-pty alone, child_process.spawn`,
      ['measure', 'tandem pty', 'pty in sandbox', 'node-pty alone', 'spawn', 'tandem / node-pty', 'tandem / spawn', 'sandbox / tandem', 'sandbox / spawn'],
      [
        row(`latency of \`${TRIVIAL}\`, median of ${LATENCY_RUNS} (ms)`, ms, 2),
        row(`throughput printing 10 MB, median of ${THROUGHPUT_RUNS} (MB/s)`, mbps, 1),
        row(`CPU of this process per 10 MB (ms, median of ${THROUGHPUT_RUNS}; the pty paths are bound by it)`, cpuMs, 0),
      ],
    );
    console.log('goal: pty throughput tandem / node-pty >= 0.8 (10 MB)');
    console.log(`added latency per command by the OS sandbox: ${fmt(ms('sandboxed') - ms('tandem'))} ms (median, same run)`);
  } finally {
    await rm(logDir, { recursive: true, force: true });
  }
}
