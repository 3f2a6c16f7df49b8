import type { JobInfo, Role } from '@tandem/shared';
import { clock } from './time-text.js';
import type { PanelContent, PanelRow } from './types.js';

/** F3 / /jobs: the session's background jobs, live from the reducer; a driver stops one with x. */
export function jobsContent(jobs: readonly JobInfo[], role: Role): PanelContent {
  const rows = [...jobs].reverse().map(jobRow);
  const running = jobs.filter((job) => job.status === 'running').length;
  return {
    title: `background jobs · ${running} running · ${jobs.length} in all`,
    rows,
    empty: 'no background jobs in this session (run_command with background: true starts one)',
    selectable: true,
    actions: role === 'driver' ? [{ key: 'x', name: 'stop_job', label: 'x stop job' }] : [],
    ...(role === 'viewer' ? { note: 'read-only: a driver can stop jobs' } : {}),
  };
}

function jobRow(job: JobInfo): PanelRow {
  const state =
    job.status === 'running' ? 'running' : job.status === 'stopped' ? `stopped (code ${job.exitCode ?? 'none'})` : `exited ${job.exitCode ?? 'none'}`;
  return {
    key: job.jobId,
    text: `${job.jobId.padEnd(8)} ${state.padEnd(18)} ${clock(job.startedAt)}  ${job.command}`,
    detail: `log: ${job.logPath}`,
    tone: job.status === 'running' ? 'good' : job.exitCode ? 'bad' : 'muted',
  };
}
