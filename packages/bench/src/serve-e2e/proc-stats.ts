import { readFile, writeFile } from 'node:fs/promises';

/** CPU time (user + system) and peak RSS of a process, from /proc (Linux). */
export interface ProcStats {
  cpuMs: number;
  peakRssMb: number;
  rssMb: number;
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

export async function procStats(pid: number): Promise<ProcStats> {
  const [stat, status] = await Promise.all([readFile(`/proc/${pid}/stat`, 'utf8'), readFile(`/proc/${pid}/status`, 'utf8')]);
  // Fields after the command name (which may hold spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { cpuMs: (utime + stime) * TICK_MS, peakRssMb: kb('VmHWM') / 1024, rssMb: kb('VmRSS') / 1024 };
}

/**
 * Sets a process's peak RSS (VmHWM) back to its current RSS (Linux: `5` into clear_refs), so a
 * warm run's peak is the measured turn's, not the unmeasured one's before it.
 */
export async function resetPeakRss(pid: number | 'self'): Promise<void> {
  await writeFile(`/proc/${pid}/clear_refs`, '5');
}
