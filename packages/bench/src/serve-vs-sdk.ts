import { mkdir, mkdtemp } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { startFakeModelServer, type FakeModelServer } from '@tandem/testkit';
import type { BenchOptions } from './bench-options.js';
import { runBareLoop } from './serve-e2e/bare-loop-process.js';
import {
  functionKey,
  loadProfile,
  moduleKey,
  perIteration as perIterationProfile,
  profileIn,
  type ProfileWindow,
  wholeProfile,
} from './serve-e2e/cpu-profile-diff.js';
import { driveOneTurn, type RunFigures } from './serve-e2e/drive-session.js';
import { PI_READ_CALL, runPi } from './serve-e2e/pi-process.js';
import { ScriptedModel, type RequestContent, type RequestShape } from './serve-e2e/scripted-model.js';
import { startServeProcess } from './serve-e2e/serve-process.js';
import { serverNodeFlags } from '@tandem/server';
import { fmt, median } from './stats.js';
import { printTable } from './table.js';

const LO = 50;
const HI = 200;
/** read_file of a 3-line file; `limit` changes each call so the repeated-call guard lets it run. */
const READ_CALL = (i: number) => ({ name: 'read_file', args: { path: 'note.txt', limit: i + 1 } });

interface Sample {
  lo: RunFigures;
  hi: RunFigures;
}

/** How a run starts: a fresh process, or one that has first run an unmeasured turn of the same length. */
type Start = 'cold' | 'warm';

async function tandemRun(
  fake: FakeModelServer,
  model: ScriptedModel,
  iterations: number,
  options: BenchOptions,
  cpuProfDir?: string,
  start: Start = 'cold',
): Promise<RunFigures> {
  model.reset(iterations, READ_CALL);
  const server = await startServeProcess({ openaiBaseURL: fake.openaiBaseURL, fromSource: options.fromSource, ...(cpuProfDir ? { cpuProfDir } : {}) });
  try {
    // Each turn is a new session, so the measured one starts from an empty conversation too.
    if (start === 'warm') await driveOneTurn(server, iterations);
    return await driveOneTurn(server, iterations, { resetPeak: start === 'warm' });
  } finally {
    await server.stop();
    fake.requests.length = 0; // the fake server keeps every body; this process is not measured, but keep it small
  }
}

async function bareRun(
  fake: FakeModelServer,
  model: ScriptedModel,
  iterations: number,
  cpuProfDir?: string,
  start: Start = 'cold',
  content?: RequestContent,
  nodeFlags?: readonly string[],
): Promise<RunFigures> {
  model.reset(iterations, READ_CALL);
  try {
    return await runBareLoop(fake.openaiBaseURL, iterations, cpuProfDir, start === 'warm', content, nodeFlags);
  } finally {
    fake.requests.length = 0;
  }
}

/** The coding agent pi in its own process (`--pi PATH`), against the same scripted model. */
async function piRun(fake: FakeModelServer, model: ScriptedModel, piCli: string, iterations: number, start: Start = 'cold'): Promise<RunFigures> {
  model.reset(iterations, PI_READ_CALL);
  try {
    return await runPi(piCli, fake.openaiBaseURL, iterations, start === 'warm');
  } finally {
    fake.requests.length = 0;
  }
}

const perIteration = (s: Sample, key: 'ms' | 'cpuMs') => (s.hi[key] - s.lo[key]) / (HI - LO);

/**
 * requirements (issue 15): a real `tandem serve` process with one attached client against the
 * scripted model server, beside a bare openai-SDK loop process with one tool, in the same run.
 * Per-iteration cost = (T(200) − T(50)) / 150 for each interleaved run, then the median.
 */
export async function benchServeVsSdk(options: BenchOptions): Promise<void> {
  const runs = options.runs ?? (options.quick ? 3 : 5);
  const fake = await startFakeModelServer();
  const model = new ScriptedModel();
  fake.setHandler(model.reply);
  const tandem: Record<Start, Sample[]> = { cold: [], warm: [] };
  const bare: Record<Start, Sample[]> = { cold: [], warm: [] };
  const bareContent: Record<Start, Sample[]> = { cold: [], warm: [] };
  const bareFlags: Record<Start, Sample[]> = { cold: [], warm: [] };
  const flags = serverNodeFlags([], '');
  const pi: Record<Start, Sample[]> = { cold: [], warm: [] };
  let piShape: RequestShape | undefined;
  let tandemShape: RequestShape | undefined;
  let bareShape: RequestShape | undefined;
  let bareContentShape: RequestShape | undefined;
  try {
    // Warm-up (disk cache, JIT of this process), not recorded; it also captures Tandem's request content.
    await bareRun(fake, model, 5);
    await tandemRun(fake, model, 5, options);
    const content = model.content;
    if (!content) throw new Error('tandem serve sent no request with tools');
    if (options.piCli) await piRun(fake, model, options.piCli, 5);
    for (let r = 0; r < runs; r++) {
      // Interleaved, rotating which path goes first, so a busy moment lands on all alike.
      const paths = ['tandem', 'bare', 'bare+content', 'bare+flags', ...(options.piCli ? (['pi'] as const) : [])];
      const order = [...paths.slice(r % paths.length), ...paths.slice(0, r % paths.length)];
      for (const path of order) {
        for (const start of ['cold', 'warm'] as const) {
          if (path === 'tandem') {
            const lo = await tandemRun(fake, model, LO, options, undefined, start);
            const hi = await tandemRun(fake, model, HI, options, undefined, start);
            tandemShape = model.first;
            tandem[start].push({ lo, hi });
          } else if (path === 'pi') {
            const lo = await piRun(fake, model, options.piCli!, LO, start);
            const hi = await piRun(fake, model, options.piCli!, HI, start);
            piShape = model.first;
            pi[start].push({ lo, hi });
          } else if (path === 'bare+flags') {
            const lo = await bareRun(fake, model, LO, undefined, start, undefined, flags);
            const hi = await bareRun(fake, model, HI, undefined, start, undefined, flags);
            bareFlags[start].push({ lo, hi });
          } else {
            const withContent = path === 'bare+content' ? content : undefined;
            const lo = await bareRun(fake, model, LO, undefined, start, withContent);
            const hi = await bareRun(fake, model, HI, undefined, start, withContent);
            if (withContent) bareContentShape = model.first;
            else bareShape = model.first;
            (withContent ? bareContent : bare)[start].push({ lo, hi });
          }
        }
      }
    }
    if (runs > 0) {
      printServeTable(tandem.cold, bare.cold, bareContent.cold, bareFlags.cold, flags, runs, 'each run a fresh process', pi.cold);
      printServeTable(
        tandem.warm,
        bare.warm,
        bareContent.warm,
        bareFlags.warm,
        flags,
        runs,
        "each process first ran one unmeasured turn of the same length, as a long-lived server has; peak RSS is the measured turn's",
        pi.warm,
      );
      printShapes(tandemShape, bareShape, bareContentShape, options.piCli ? piShape : null);
    }
    if (options.cpuProfDir) await profileServe(fake, model, options);
  } finally {
    await fake.close();
  }
}

function printServeTable(
  tandem: Sample[],
  bare: Sample[],
  bareContent: Sample[],
  bareFlags: Sample[],
  flags: readonly string[],
  runs: number,
  start: string,
  pi: Sample[] = [],
): void {
  const row = (samples: Sample[]) => ({
    ms: median(samples.map((s) => perIteration(s, 'ms'))),
    cpu: median(samples.map((s) => perIteration(s, 'cpuMs'))),
    rssLo: median(samples.map((s) => s.lo.peakRssMb)),
    rssHi: median(samples.map((s) => s.hi.peakRssMb)),
  });
  const t = row(tandem);
  const b = row(bare);
  const c = row(bareContent);
  const f = row(bareFlags);
  const cells = (r: typeof t) => [fmt(r.ms), fmt(r.cpu), fmt(r.rssLo, 1), fmt(r.rssHi, 1), fmt(r.rssHi - r.rssLo, 1)];
  const ratio = (over: typeof t) => [fmt(t.ms / over.ms), fmt(t.cpu / over.cpu), fmt(t.rssLo / over.rssLo), fmt(t.rssHi / over.rssHi), ''];
  printTable(
    `tandem serve (own process, event log, guards, 1 socket.io client) vs a bare openai-SDK loop process, one read_file-like tool; ${start}; per iteration = (T(${HI}) − T(${LO})) / ${HI - LO}, median of ${runs} interleaved runs`,
    ['path', 'ms / iteration', 'CPU ms / iteration', `peak RSS @${LO} MB`, `peak RSS @${HI} MB`, `RSS growth ${LO}→${HI} MB`],
    [
      ['bare SDK loop', ...cells(b)],
      ["bare SDK loop, Tandem's prompt + tools", ...cells(c)],
      ["bare SDK loop, the server's V8 flags", ...cells(f)],
      ['tandem serve + 1 client', ...cells(t)],
      ['ratio tandem / bare', ...ratio(b)],
      ["ratio tandem / bare with Tandem's prompt + tools", ...ratio(c)],
      ["ratio tandem / bare with the server's V8 flags", ...ratio(f)],
      ...(pi.length > 0
        ? [
            ['pi (pi --mode rpc, own process, session file)', ...cells(row(pi))],
            ['ratio tandem / pi', ...ratio(row(pi))],
          ]
        : []),
    ],
  );
  // Each run's own ratio (the runs are interleaved, so a busy moment lands on both sides of a pair): the spread the medians come from.
  const perRun = (over: Sample[]) => tandem.map((s, i) => fmt(over[i] ? perIteration(s, 'ms') / perIteration(over[i], 'ms') : Number.NaN)).join(' ');
  console.log(`ratio tandem / bare (ms / iteration) run by run: ${perRun(bare)}${pi.length > 0 ? `; tandem / pi: ${perRun(pi)}` : ''}`);
  console.log(`RSS growth ${LO}→${HI} MB run by run: tandem ${tandem.map((s) => fmt(s.hi.peakRssMb - s.lo.peakRssMb, 1)).join(' ')}`);
  console.log(`the server's V8 flags (tandem serve has them; the bare loop's rows run without them, but one): ${flags.join(' ')}`);
  console.log(`goals: ms/iteration ratio ≤ 1.3${pi.length > 0 ? ' (≤ 0.5 against pi)' : ''}; RSS growth ${LO}→${HI} ≤ 5 MB; peak RSS @${HI} ratio ≤ 1.2`);
}

function printShapes(
  tandemShape: RequestShape | undefined,
  bareShape: RequestShape | undefined,
  bareContentShape: RequestShape | undefined,
  piShape: RequestShape | undefined | null,
): void {
  const shape = (s: RequestShape | undefined) =>
    s
      ? [
          String(s.toolCount),
          String(s.toolBytes),
          fmt(s.toolBytes / Math.max(1, s.toolCount), 0),
          String(s.bodyBytes),
          String(s.nonAscii),
          String(s.lastBodyBytes ?? '—'),
        ]
      : ['—', '—', '—', '—', '—', '—'];
  printTable(
    "First model request of a turn, as the model server received it (and the last request's body: the whole conversation)",
    ['path', 'tools', 'tool-definition bytes', 'bytes / tool', 'body bytes', 'non-ASCII chars', `last body bytes @${HI}`],
    [
      ['bare SDK loop', ...shape(bareShape)],
      ["bare SDK loop, Tandem's prompt + tools", ...shape(bareContentShape)],
      ['tandem serve', ...shape(tandemShape)],
      ...(piShape === null ? [] : [['pi', ...shape(piShape)]]),
    ],
  );
}

/**
 * One profiled run at LO and one at HI of each path. Tandem is counted from send to turn_done
 * only (start-up is not the turn's); the bare loop's whole process, whose start-up cancels out in
 * the difference. Rows: self ms per iteration for tandem, the bare loop, and what tandem adds.
 */
async function profileServe(fake: FakeModelServer, model: ScriptedModel, options: BenchOptions): Promise<void> {
  const base = resolve(options.cpuProfDir!);
  await mkdir(base, { recursive: true });
  const dirs = {
    serveLo: await mkdtemp(join(base, `serve-${LO}-`)),
    serveHi: await mkdtemp(join(base, `serve-${HI}-`)),
    bareLo: await mkdtemp(join(base, `bare-${LO}-`)),
    bareHi: await mkdtemp(join(base, `bare-${HI}-`)),
  };
  const serveLo = await tandemRun(fake, model, LO, options, dirs.serveLo);
  const serveHi = await tandemRun(fake, model, HI, options, dirs.serveHi);
  await bareRun(fake, model, LO, dirs.bareLo);
  await bareRun(fake, model, HI, dirs.bareHi);
  const served = async (dir: string, run: RunFigures): Promise<ProfileWindow> => ({
    profile: await loadProfile(await profileIn(dir)),
    fromUs: run.windowUs![0],
    toUs: run.windowUs![1],
  });
  const whole = async (dir: string) => wholeProfile(await loadProfile(await profileIn(dir)));
  const [sLo, sHi, bLo, bHi] = await Promise.all([served(dirs.serveLo, serveLo), served(dirs.serveHi, serveHi), whole(dirs.bareLo), whole(dirs.bareHi)]);
  const side = (keyOf: typeof functionKey, n: number) => {
    const t = perIterationProfile(sLo, sHi, HI - LO, keyOf);
    const b = perIterationProfile(bLo, bHi, HI - LO, keyOf);
    const rows = [...t].map(([key, ms]) => ({ key, t: ms, b: b.get(key) ?? 0 })).filter((r) => r.key !== '(idle)');
    return rows
      .sort((x, y) => y.t - y.b - (x.t - x.b))
      .slice(0, n)
      .map((r) => [r.key, fmt(r.t, 3), fmt(r.b, 3), fmt(r.t - r.b, 3)]);
  };
  const total = (lo: ProfileWindow, hi: ProfileWindow) =>
    [...perIterationProfile(lo, hi, HI - LO, moduleKey)].filter(([k]) => k !== '(idle)').reduce((sum, [, ms]) => sum + ms, 0);
  const columns = ['tandem ms / iteration', 'bare ms / iteration', 'tandem − bare'];
  console.log(`\nprofiled CPU per iteration (idle excluded): tandem ${fmt(total(sLo, sHi), 3)} ms, bare ${fmt(total(bLo, bHi), 3)} ms`);
  printTable(
    `CPU profiles, self ms per iteration ((${HI} − ${LO}) / ${HI - LO}), by module, largest difference first`,
    ['module', ...columns],
    side(moduleKey, 20),
  );
  printTable('… by function', ['function', ...columns], side(functionKey, 30));
  console.log(`profiles: ${Object.values(dirs).join(', ')}`);
}
