import { type JobManager, type ToolServices, ToolError } from '@tandem/core';

/**
 * The host services of the built-in command tools (run_command, read_job_output, stop_job,
 * read_env). Hosts put these on `ctx.services`; each has a default or a clear error when missing.
 */
export interface BuiltinToolServices {
  /** Background commands (run_command background, read_job_output, stop_job). */
  jobs?: JobManager;
  /** run_command's default timeout (60 s). */
  defaultCommandTimeoutMs?: number;
  /** The most a call may ask for with timeout_seconds (600 s). */
  maxCommandTimeoutMs?: number;
  /** What read_env lists (default process.env). */
  env?: Record<string, string | undefined>;
}

declare module '@tandem/core' {
  interface ToolServices extends BuiltinToolServices {}
}

export const DEFAULT_COMMAND_TIMEOUT_MS = 60_000;
export const MAX_COMMAND_TIMEOUT_MS = 600_000;

export function jobsOf(services: ToolServices): JobManager {
  if (!services.jobs) {
    throw new ToolError('background commands are not available in this host (no job manager); run the command without background: true');
  }
  return services.jobs;
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

export function commandTimeouts(services: ToolServices): { defaultMs: number; maxMs: number } {
  const maxMs = positive(services.maxCommandTimeoutMs, MAX_COMMAND_TIMEOUT_MS);
  const defaultMs = Math.min(positive(services.defaultCommandTimeoutMs, DEFAULT_COMMAND_TIMEOUT_MS), maxMs);
  return { defaultMs, maxMs };
}

export function envOf(services: ToolServices): Record<string, string | undefined> {
  return services.env ?? process.env;
}
