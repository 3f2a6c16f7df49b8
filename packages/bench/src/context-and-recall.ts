import { benchContextAccounting } from './context-accounting.js';
import { benchRecall } from './recall-latency.js';
import { printTable } from './table.js';

/** Prints whatever rows the benchmark functions return, with their own column names. */
function printRows(title: string, rows: ReadonlyArray<Record<string, unknown>>): void {
  if (rows.length === 0) return;
  const header = Object.keys(rows[0]!);
  printTable(
    title,
    header,
    rows.map((row) => header.map((h) => String(typeof row[h] === 'number' ? Number((row[h] as number).toFixed(3)) : row[h]))),
  );
}

export async function benchContext(): Promise<void> {
  const rows = await benchContextAccounting([100, 1_000, 5_000]);
  printRows('Context accounting per event as the session grows (incremental vs full re-estimate)', rows as never);
}

export async function benchMemoryRecall(): Promise<void> {
  const rows = await benchRecall([10_000, 100_000]);
  printRows('Memory recall latency', rows as never);
}
