import type { JobManager } from '../ports/job-manager.js';
import type { ToolServices } from './define.js';
import { ToolError } from './define.js';

/**
 * Typed access to the host services the built-in tools use. Hosts put these on
 * `ctx.services`; each has a default or a clear error when missing.
 *
 * - `jobs: JobManager` — background commands (run_command background, read_job_output, stop_job)
 * - `commandEnv: Record<string,string>` — extra environment for run_command
 * - `defaultCommandTimeoutMs: number` — run_command's default timeout (60 s)
 * - `maxCommandTimeoutMs: number` — the most a call may ask for with timeout_seconds (600 s)
 * - `env: Record<string,string|undefined>` — what read_env lists (default process.env)
 */
export interface BuiltinToolServices {
  jobs?: JobManager;
  commandEnv?: Record<string, string>;
  defaultCommandTimeoutMs?: number;
  maxCommandTimeoutMs?: number;
  env?: Record<string, string | undefined>;
}

export const DEFAULT_COMMAND_TIMEOUT_MS = 60_000;
export const MAX_COMMAND_TIMEOUT_MS = 600_000;

export function jobsOf(services: ToolServices): JobManager {
  const jobs = services.jobs as Partial<JobManager> | undefined;
  if (!jobs || typeof jobs.start !== 'function' || typeof jobs.read !== 'function' || typeof jobs.stop !== 'function') {
    throw new ToolError('background commands are not available in this host (no job manager); run the command without background: true');
  }
  return jobs as JobManager;
}

export function commandEnvOf(services: ToolServices): Record<string, string> {
  const env = services.commandEnv;
  if (!env || typeof env !== 'object') return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env as Record<string, unknown>)) if (typeof v === 'string') out[k] = v;
  return out;
}

function positiveNumber(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}

export function commandTimeouts(services: ToolServices): { defaultMs: number; maxMs: number } {
  const maxMs = positiveNumber(services.maxCommandTimeoutMs, MAX_COMMAND_TIMEOUT_MS);
  const defaultMs = Math.min(positiveNumber(services.defaultCommandTimeoutMs, DEFAULT_COMMAND_TIMEOUT_MS), maxMs);
  return { defaultMs, maxMs };
}

export function envOf(services: ToolServices): Record<string, string | undefined> {
  const env = services.env;
  return env && typeof env === 'object' ? (env as Record<string, string | undefined>) : process.env;
}
