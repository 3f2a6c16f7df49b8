/**
 * How `run_command` reaches a shell. The server supplies a node-pty implementation; tests may
 * supply their own. The runner owns the process group and must leave nothing behind.
 */
export interface RunCommandOptions {
  command: string;
  cwd: string;
  /** Extra environment on top of the runner's own defaults (non-interactive settings). */
  env?: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
  /** Identifies the running command so a person can type into it (`command:input`). */
  callId: string;
  sessionId: string;
  /** Raw bytes as they arrive (ANSI included), for attached clients. */
  onData(chunk: string): void;
}

export interface RunCommandResult {
  exitCode: number | null;
  signal?: string | null;
  /** Everything the command printed, raw. */
  output: string;
  timedOut: boolean;
  /** Where the full output was kept, when the runner keeps a log. */
  logPath?: string;
  /** The OS sandbox the command ran in (e.g. `bubblewrap`), when the runner has one. */
  sandbox?: string;
  /**
   * Variables of the host's environment the command did not get: `names` (secret-looking, or
   * `never` passed whatever the configuration: the host's tokens and provider keys).
   */
  withheldEnv?: { names: string[]; never: string[] };
  /** Sentences the sandbox adds for the model (e.g. connections its proxy refused, and why). */
  notes?: string[];
}

export interface CommandRunner {
  run(options: RunCommandOptions): Promise<RunCommandResult>;
}
