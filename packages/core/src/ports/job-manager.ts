/**
 * Background commands (requirements T1). The host (the server) owns the processes and their log files;
 * the engine's `run_command { background: true }`, `read_job_output` and `stop_job` reach them
 * only through this port, passed as `ctx.services.jobs`.
 */
export interface JobStartOptions {
  command: string;
  cwd: string;
  env: Record<string, string>;
  sessionId: string;
}

export interface JobInfo {
  jobId: string;
  sessionId: string;
  command: string;
  cwd: string;
  logPath: string;
  running: boolean;
  exitCode: number | null;
  startedAt: number;
  endedAt?: number;
}

export interface JobReadOptions {
  /** Byte offset into the job's log; default 0. */
  offset?: number;
  /** Most bytes to return; the host picks a default. */
  maxBytes?: number;
}

export interface JobOutput {
  output: string;
  running: boolean;
  exitCode: number | null;
  /** Pass back as `offset` to continue where this read stopped. */
  nextOffset: number;
}

export interface JobManager {
  start(options: JobStartOptions): Promise<{ jobId: string; logPath: string }>;
  /** Throws when the job id is unknown. */
  read(jobId: string, options?: JobReadOptions): Promise<JobOutput>;
  /**
   * Stops the job and everything it started; a finished job is left as it is. `by` names who
   * stopped it in the job's end event (the agent when left out; a user's name from a client).
   */
  stop(jobId: string, by?: string): Promise<void>;
  list(sessionId: string): JobInfo[];
}
