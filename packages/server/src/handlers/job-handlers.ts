import type { JobManager } from '@tandem/core';
import type { JobInfo } from '@tandem/shared';
import type { SessionManager } from '../sessions/session-manager.js';
import type { Session } from '../sessions/session.js';
import { CommandError } from './command-error.js';
import type { HandlerMap } from './dispatch.js';

/** The session's job manager (core's JobManager port, the `jobs` tool service). */
function jobsOf(session: Session): JobManager {
  const { jobs } = session.services;
  if (!jobs) throw new CommandError('not_found', `session ${session.id} has no background job manager on this server`);
  return jobs;
}

/** jobs:list and job:stop: background commands (requirements T1) of one session. */
export function jobHandlers(sessions: SessionManager): HandlerMap {
  return {
    'jobs:list': ({ sessionId }) => {
      const session = sessions.require(sessionId);
      const jobs: JobInfo[] = jobsOf(session)
        .list(sessionId)
        .map((job) => ({
          jobId: job.jobId,
          command: job.command,
          startedAt: new Date(job.startedAt).toISOString(),
          status: job.running ? 'running' : job.exitCode === null ? 'stopped' : 'exited',
          exitCode: job.exitCode,
          logPath: job.logPath,
        }));
      return { jobs };
    },

    'job:stop': async ({ sessionId, jobId }, { client }) => {
      const session = sessions.require(sessionId);
      const jobs = jobsOf(session);
      if (!jobs.list(sessionId).some((job) => job.jobId === jobId)) {
        throw new CommandError('not_found', `no job ${jobId} in session ${sessionId}; jobs:list shows its jobs`);
      }
      await jobs.stop(jobId, client.name);
      return {};
    },
  };
}
