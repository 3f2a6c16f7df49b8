import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pty from 'node-pty';
import { PtyCommandRunner } from '@tandem/server';
import { fmt, median } from './stats.js';
import { printTable } from './table.js';

const TRIVIAL = 'true';
const LATENCY_RUNS = 40;
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

export async function benchPtyVsSpawn(): Promise<void> {
  const logDir = await mkdtemp(join(tmpdir(), 'tandem-bench-pty-'));
  const runner = new PtyCommandRunner({ logDir });
  let n = 0;
  // Tandem's path: a pty per command, its own process group, coalesced live output, a log file.
  const ptyRun = async (command: string) => {
    let bytes = 0;
    await runner.run({
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
    const paths = { tandem: ptyRun, rawPty: rawPtyRun, spawn: spawnRun };
    const latency = { tandem: [] as number[], rawPty: [] as number[], spawn: [] as number[] };
    const throughput = { tandem: 0, rawPty: 0, spawn: 0 };
    for (let i = 0; i < LATENCY_RUNS; i++) {
      for (const [name, run] of Object.entries(paths)) latency[name as keyof typeof paths].push(await timeIt(() => run(TRIVIAL)));
    }
    for (let i = 0; i < 3; i++) {
      for (const [name, run] of Object.entries(paths)) {
        const mbps = TEN_MB / 1024 / 1024 / ((await timeIt(() => run(PRINT_10MB))) / 1000);
        throughput[name as keyof typeof paths] = Math.max(throughput[name as keyof typeof paths], mbps);
      }
    }
    const ms = { tandem: median(latency.tandem), rawPty: median(latency.rawPty), spawn: median(latency.spawn) };
    printTable('run_command: Tandem pty path vs node-pty alone vs child_process.spawn', ['measure', 'tandem pty', 'node-pty alone', 'spawn', 'tandem / spawn'], [
      [`latency of \`${TRIVIAL}\`, median of ${LATENCY_RUNS} (ms)`, fmt(ms.tandem), fmt(ms.rawPty), fmt(ms.spawn), fmt(ms.tandem / ms.spawn)],
      ['throughput printing 10 MB, best of 3 (MB/s)', fmt(throughput.tandem, 1), fmt(throughput.rawPty, 1), fmt(throughput.spawn, 1), fmt(throughput.tandem / throughput.spawn)],
    ]);
  } finally {
    await rm(logDir, { recursive: true, force: true });
  }
}
