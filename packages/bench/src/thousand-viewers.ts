import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './serve-e2e/serve-process.js';
import { fmt, median, percentile } from './stats.js';
import { printTable } from './table.js';
import type { ViewersServerMessage } from './viewers-server-main.js';
import type { SwarmMessage } from './viewer-swarm-main.js';

const VIEWERS = 1000;
/** Viewer processes (the server's process holds the server alone, so its RSS is the server's). */
const SWARMS = 4;
const DELTAS = 1000;
const RUNS = 3;

/** A forked bench process and the messages it sends, one at a time. */
interface Child<M> {
  child: ChildProcess;
  next(): Promise<M>;
}

/** `onProgress`: gets the child's `progress` messages (they are not queued for `next`). */
function forkChild<M extends { type: string }>(file: string, args: string[], onProgress?: (m: M) => void): Child<M> {
  const child = fork(join(REPO_ROOT, 'packages/bench/dist', file), args, { cwd: REPO_ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const queue: M[] = [];
  const waiting: Array<(m: M | Error) => void> = [];
  child.on('message', (m: M) => {
    if (m.type === 'progress' && onProgress) onProgress(m);
    else if (waiting.length > 0) waiting.shift()!(m);
    else queue.push(m);
  });
  child.on('exit', (code) => {
    for (const w of waiting.splice(0)) w(new Error(`${file} exited (${code})`));
  });
  return {
    child,
    next: () =>
      new Promise<M>((resolve, reject) => {
        const deliver = (m: M | Error) => {
          if (m instanceof Error) return reject(m);
          if (m.type === 'failed') return reject(new Error(`${file}: ${(m as { message?: string }).message}`));
          resolve(m);
        };
        const queued = queue.shift();
        if (queued) deliver(queued);
        else waiting.push(deliver);
      }),
  };
}

interface Result {
  p50: number;
  p99: number;
  complete: number;
  problems: string[];
  attachMs: number;
  rssPerViewerKb: number;
}

/** Longest wait for all viewers to attach, and for all to get turn_done once the turn streams. */
const PHASE_LIMIT_MS = 5 * 60_000;
const PROGRESS_EVERY_MS = 5000;

/**
 * Resolves with `work`, or rejects after `PHASE_LIMIT_MS` naming what is missing; meanwhile says
 * every few seconds on stderr how far each swarm got.
 */
async function phase<T>(name: string, work: Promise<T>, status: () => string): Promise<T> {
  const started = performance.now();
  let ticker: NodeJS.Timeout | undefined;
  let limit: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        ticker = setInterval(
          () => process.stderr.write(`  1,000 viewers: ${name}, ${((performance.now() - started) / 1000).toFixed(0)} s: ${status()}\n`),
          PROGRESS_EVERY_MS,
        );
        limit = setTimeout(() => reject(new Error(`${name} not done after ${PHASE_LIMIT_MS / 1000} s: ${status()}`)), PHASE_LIMIT_MS);
      }),
    ]);
  } finally {
    clearInterval(ticker);
    clearTimeout(limit);
  }
}

/** The server in its own process; its RSS before and after the viewers attach; then one streamed turn, gathered by the viewers. */
async function run(mode: 'tandem' | 'raw'): Promise<Result> {
  const server = forkChild<ViewersServerMessage>('viewers-server-main.js', [mode, String(DELTAS)]);
  const swarms: Array<Child<SwarmMessage>> = [];
  const progress: Array<{ attached: number; finished: number }> = [];
  const perViewers = VIEWERS / SWARMS;
  const status = (key: 'attached' | 'finished') => `${mode}: ${progress.map((p, i) => `swarm ${i + 1} ${p[key]} of ${perViewers} ${key}`).join(', ')}`;
  try {
    const listening = await server.next();
    if (listening.type !== 'listening') throw new Error(`viewers server: expected listening, got ${listening.type}`);
    const rss = async () => {
      server.child.send({ type: 'rss' });
      const answer = await server.next();
      if (answer.type !== 'rss') throw new Error(`viewers server: expected rss, got ${answer.type}`);
      return answer.rss;
    };
    const before = await rss();
    const started = performance.now();
    for (let i = 0; i < SWARMS; i++) {
      progress.push({ attached: 0, finished: 0 });
      swarms.push(
        forkChild<SwarmMessage>(
          'viewer-swarm-main.js',
          [listening.url, listening.token, listening.sessionId, String(perViewers), mode, String(DELTAS)],
          (m) => {
            if (m.type === 'progress') progress[i] = { attached: m.attached, finished: m.finished };
          },
        ),
      );
    }
    await phase(
      'attaching the viewers',
      Promise.all(
        swarms.map(async (swarm, i) => {
          const ready = await swarm.next();
          if (ready.type !== 'ready') throw new Error(`viewers: swarm ${i + 1} said ${ready.type}, expected ready`);
          progress[i]!.attached = perViewers;
        }),
      ),
      () => status('attached'),
    );
    const attachMs = performance.now() - started;
    const after = await rss();
    const done = swarms.map((s) => s.next());
    for (const d of done) d.catch(() => undefined); // a failure surfaces where `done` is awaited
    server.child.send({ type: 'stream' });
    const streamed = phase(
      'streaming to the viewers',
      server.next().then((m) => {
        if (m.type !== 'streamed') throw new Error(`viewers server: expected streamed, got ${m.type}`);
      }),
      () => `${status('finished')}; the server has not finished the turn yet`,
    );
    await streamed;
    const reports = (await phase('delivering the last events', Promise.all(done), () => status('finished'))).filter(
      (m): m is Extract<SwarmMessage, { type: 'done' }> => m.type === 'done',
    );
    const latencies = reports.flatMap((r) => r.latencies);
    return {
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      complete: reports.reduce((n, r) => n + r.complete, 0),
      problems: reports.flatMap((r) => r.problems).slice(0, 5),
      attachMs,
      rssPerViewerKb: (after - before) / 1024 / VIEWERS,
    };
  } finally {
    for (const c of [server, ...swarms]) if (c.child.exitCode === null) c.child.kill();
  }
}

/**
 * "1,000 viewers": one session streaming DELTAS text deltas to 1,000 viewers (in SWARMS processes
 * of their own, attached with the view token), beside a bare socket.io server broadcasting the
 * same frames to the same number of clients; RUNS interleaved runs, medians. Every viewer must get
 * every delta in order and every persisted event in seq order. RSS per viewer: the server
 * process's growth from before the viewers connect to after all attached (garbage collected).
 */
export async function benchThousandViewers(): Promise<void> {
  const tandem: Result[] = [];
  const raw: Result[] = [];
  for (let i = 0; i < RUNS; i++) {
    if (i % 2 === 0) {
      tandem.push(await run('tandem'));
      raw.push(await run('raw'));
    } else {
      raw.push(await run('raw'));
      tandem.push(await run('tandem'));
    }
  }
  const m = (results: Result[], key: 'p50' | 'p99' | 'attachMs' | 'rssPerViewerKb') => median(results.map((r) => r[key]));
  const row = (name: string, results: Result[]) => [
    name,
    fmt(m(results, 'p50')),
    fmt(m(results, 'p99')),
    `${Math.min(...results.map((r) => r.complete))} of ${VIEWERS}`,
    fmt(m(results, 'attachMs'), 0),
    fmt(m(results, 'rssPerViewerKb'), 1),
  ];
  printTable(
    `1,000 viewers: one session streaming ${DELTAS} text deltas to ${VIEWERS} viewers in ${SWARMS} processes (median of ${RUNS} interleaved runs; goal p99 ≤ 1.2× raw)`,
    ['server', 'p50 ms', 'p99 ms', 'viewers with every event in order', 'connect + attach all ms', 'server RSS growth per viewer KB'],
    [
      row('tandem (session:attach as viewer)', tandem),
      row('raw socket.io broadcast, same frames', raw),
      [
        'ratio tandem / raw',
        fmt(m(tandem, 'p50') / m(raw, 'p50')),
        fmt(m(tandem, 'p99') / m(raw, 'p99')),
        '',
        fmt(m(tandem, 'attachMs') / m(raw, 'attachMs')),
        '',
      ],
    ],
  );
  const problems = [...tandem, ...raw].flatMap((r) => r.problems);
  if (problems.length > 0) console.log(`delivery problems: ${problems.slice(0, 5).join('; ')}`);
}
