import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { startBenchServer } from './bench-server.js';
import { fmt, median } from './stats.js';

export interface StartTimes {
  fromSnapshot: number[];
  wholeLog: number[];
  snapshotKB: number;
  logKB: number;
}

/**
 * Server start (createApplication + listen, every session loaded) on `dataDir`: with the
 * snapshot the previous close left beside the session's log, and with it removed so the whole
 * log is read; `runs` of each, interleaved, the order alternating.
 */
export async function measureStarts(dataDir: string, sessionId: string, runs: number): Promise<StartTimes> {
  const dir = join(dataDir, 'sessions', sessionId);
  const snapshotFile = join(dir, 'snapshot.json');
  const startOnce = async (withSnapshot: boolean) => {
    if (!withSnapshot) await rm(snapshotFile, { force: true });
    const started = performance.now();
    const server = await startBenchServer({ dataDir });
    const ms = performance.now() - started;
    // Closing writes a snapshot when the session has none that covers its log.
    await server.close();
    return ms;
  };
  const times: StartTimes = { fromSnapshot: [], wholeLog: [], snapshotKB: 0, logKB: 0 };
  await startOnce(false);
  for (let run = 0; run < runs; run++) {
    if (run % 2 === 0) {
      times.fromSnapshot.push(await startOnce(true));
      times.wholeLog.push(await startOnce(false));
    } else {
      times.wholeLog.push(await startOnce(false));
      times.fromSnapshot.push(await startOnce(true));
    }
  }
  times.snapshotKB = (await stat(snapshotFile)).size / 1024;
  times.logKB = (await stat(join(dir, 'events.jsonl'))).size / 1024;
  return times;
}

/** Table rows: start from the snapshot, from the whole log (the baseline), and their ratio. */
export function startRows(label: string, times: StartTimes): string[][] {
  const snapshotMs = median(times.fromSnapshot);
  const wholeMs = median(times.wholeLog);
  return [
    [label, 'snapshot.json + the log after it', fmt(snapshotMs, 0), fmt(times.snapshotKB, 0)],
    ['', 'whole events.jsonl read (baseline)', fmt(wholeMs, 0), fmt(times.logKB, 0)],
    ['', 'ratio snapshot / whole log', fmt(snapshotMs / wholeMs, 3), ''],
  ];
}
