import { readdirSync, readFileSync } from 'node:fs';
import { procStat } from './process-group.js';

/** A number no other test uses: `sleep <it>` makes a process findable by its command line. */
export function uniqueMarker(): number {
  return 100_000 + Math.floor(Math.random() * 800_000) + (process.pid % 97);
}

/**
 * Live processes (zombies excluded) whose command line holds `marker`. Works whatever PID
 * namespace the process sees itself in, so it finds sandboxed commands too.
 */
export function processesMatching(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ');
    } catch {
      continue;
    }
    if (!cmdline.includes(marker)) continue;
    const stat = procStat(pid);
    if (stat && stat.state !== 'Z') found.push(pid);
  }
  return found;
}

/** Waits until `condition` holds, checking every few milliseconds (a state, not a duration). */
export async function waitFor(condition: () => boolean, what = 'the condition'): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
