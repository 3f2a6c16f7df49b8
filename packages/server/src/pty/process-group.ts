import { readdirSync, readFileSync } from 'node:fs';
import { systemClock, type Clock } from '@tandem/ai';

/**
 * A pty's child is a session leader, so its pid is also its process-group id: signalling
 * `-pid` reaches the command and everything it started (background jobs included).
 */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A killed process stays signalable as a zombie until its new parent reaps it; on Linux,
  // look at the members' states so a group of zombies counts as gone.
  const members = groupMembers(pgid);
  return members === undefined || members.some((m) => m.state !== 'Z');
}

interface Member {
  pid: number;
  state: string;
}

/** Members of a process group read from /proc; undefined where /proc is not available. */
export function groupMembers(pgid: number): Member[] | undefined {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  const members: Member[] = [];
  for (const pid of pids) {
    const stat = procStat(Number(pid));
    if (stat && stat.pgrp === pgid) members.push({ pid: Number(pid), state: stat.state });
  }
  return members;
}

/** State letter and process group of a process from /proc/<pid>/stat, or undefined if gone. */
export function procStat(pid: number): { state: string; pgrp: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses; fields after the last ')' are fixed.
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: rest[0] ?? '?', pgrp: Number(rest[2]) };
  } catch {
    return undefined;
  }
}

export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * SIGTERM to the whole group, then SIGKILL to whatever is left after `graceMs`. Resolves once
 * the group is empty (or after the SIGKILL, which cannot be ignored).
 */
export async function killGroup(pgid: number, graceMs: number, clock: Clock = systemClock, pollMs = 25): Promise<void> {
  if (!groupAlive(pgid)) return;
  signalGroup(pgid, 'SIGTERM');
  const deadline = clock.now() + graceMs;
  while (clock.now() < deadline) {
    await clock.sleep(pollMs);
    if (!groupAlive(pgid)) return;
  }
  signalGroup(pgid, 'SIGKILL');
  // Give the kernel a moment to reap; SIGKILL cannot be ignored.
  for (let i = 0; i < 20 && groupAlive(pgid); i++) await clock.sleep(pollMs);
}
