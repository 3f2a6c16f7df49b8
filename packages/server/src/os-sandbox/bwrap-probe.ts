import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bwrapArgs } from './bwrap-args.js';

export type ProbeResult = { ok: true; bwrap: string } | { ok: false; reason: string };

export interface ProbeOptions {
  /** Where to look for `bwrap`; default $PATH. */
  pathEnv?: string;
  platform?: NodeJS.Platform;
  /** Also check that a network namespace can be made (when commands run without network). */
  network: boolean;
}

/**
 * Finds bubblewrap and proves it can build the sandbox commands get, by running `true` inside
 * one with the same flags (a container without user or PID namespaces fails here, not later at
 * the first command). Runs once when the server starts.
 */
export function probeBwrap(options: ProbeOptions): ProbeResult {
  const platform = options.platform ?? process.platform;
  if (platform !== 'linux') {
    const what = platform === 'darwin' ? 'macOS' : platform;
    return { ok: false, reason: `${what} has no bubblewrap; commands run unconfined (the command blacklist still applies)` };
  }
  const bwrap = findOnPath('bwrap', options.pathEnv ?? process.env.PATH ?? '');
  if (!bwrap) return { ok: false, reason: 'bwrap not found (install bubblewrap: apt-get install bubblewrap)' };
  const scratch = mkdtempSync(path.join(tmpdir(), 'tandem-bwrap-probe-'));
  try {
    const args = bwrapArgs({
      cwd: scratch,
      mounts: [{ kind: 'writable', path: scratch }],
      network: options.network,
      file: 'true',
      args: [],
    });
    const run = spawnSync(bwrap, args, { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'ignore', 'pipe'] });
    if (run.error) return { ok: false, reason: `bwrap could not start (${run.error.message})` };
    if (run.status !== 0) {
      const said = (run.stderr ?? '').trim().split('\n').pop() ?? '';
      return {
        ok: false,
        reason: `bwrap cannot create the sandbox here (${said || `exit ${run.status ?? run.signal}`}); namespaces may be disabled in this container`,
      };
    }
    return { ok: true, bwrap };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const probed = new Map<string, ProbeResult>();

/** `probeBwrap` once per process and setting (a test run starts many servers; the answer is the same). */
export function probeBwrapOnce(options: ProbeOptions): ProbeResult {
  const key = JSON.stringify([options.platform ?? process.platform, options.pathEnv ?? process.env.PATH ?? '', options.network]);
  let result = probed.get(key);
  if (!result) probed.set(key, (result = probeBwrap(options)));
  return result;
}

export function findOnPath(name: string, pathEnv: string): string | undefined {
  for (const dir of pathEnv.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}
