import type { EventOf, JobInfo } from '@tandem/shared';
import type { ViewState } from './types.js';

/** Jobs kept in the view; the oldest finished ones fall off first. */
export const MAX_JOBS = 100;

/**
 * The session's background jobs, kept live from job_started / job_exited and replaced by a
 * jobs:list answer (the server's word wins). Pure, like the reducer that calls it.
 */
export function jobStarted(state: ViewState, event: EventOf<'job_started'>): ViewState {
  const job: JobInfo = { jobId: event.jobId, command: event.command, startedAt: event.ts, status: 'running', logPath: event.logPath };
  const others = state.jobs.filter((existing) => existing.jobId !== event.jobId);
  return { ...state, jobs: capJobs([...others, job]) };
}

export function jobExited(state: ViewState, event: EventOf<'job_exited'>): ViewState {
  if (!state.jobs.some((job) => job.jobId === event.jobId)) return state;
  const jobs = state.jobs.map(
    (job): JobInfo => (job.jobId === event.jobId ? { ...job, status: event.stoppedBy ? 'stopped' : 'exited', exitCode: event.exitCode } : job),
  );
  return { ...state, jobs };
}

/** A jobs:list answer: the server's list, in start order. */
export function jobsListed(state: ViewState, jobs: readonly JobInfo[]): ViewState {
  const sorted = [...jobs].sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  return { ...state, jobs: capJobs(sorted) };
}

function capJobs(jobs: JobInfo[]): JobInfo[] {
  let next = jobs;
  while (next.length > MAX_JOBS) {
    const finished = next.findIndex((job) => job.status !== 'running');
    next = next.filter((_, index) => index !== Math.max(finished, 0));
  }
  return next;
}
