import { z } from 'zod';
import { commandEnvOf, defineTool, NONINTERACTIVE_ENV, RUNS_A_COMMAND, ToolError, type RunCommandResult, type ToolContext } from '@tandem/core';
import { checkCommandBlacklist } from '../shell/command-blacklist.js';
import { modelCopyOfOutput } from './command-output.js';
import { commandTimeouts, jobsOf } from './tool-services.js';

/** Beyond the command's timeout: time for the runner to kill it and hand back the output. */
const COMMAND_GRACE_MS = 10_000;

const description = `Runs a shell command in the workspace (a pty, non-interactive: CI=1, no pagers, no prompts) and returns its output and exit code. On timeout you get the output so far and a timeout line.
Long output is cut to its first and last 8 KB; when that happens the result says where the full log is.
Chain dependent commands with &&. Some commands are always refused (command blacklist: rm -rf of /, ~ or ., dd and disk formatting, sudo/su, chmod 777, fork bombs, reverse shells, shutdown/reboot), and so is what the blacklist cannot verify: rm/shred/truncate/chown fed by xargs, parallel, a loop variable or a substitution; recursive deletes outside the workspace; text piped into sh; inline python/node/perl code that deletes files, starts programs or opens connections. Write paths literally, relative to the workspace.
For servers and watchers pass background: true, then read_job_output / stop_job with the job id.
Prefer read_file, list_directory, search_files and grep_files for looking at files, and edit_file / write_file for changing them: they are safer and need no shell.`;

export const runCommandTool = defineTool({
  name: 'run_command',
  description,
  schema: z.object({
    command: z.string().min(1).describe('The shell command line'),
    timeout_seconds: z.number().positive().optional().describe("Seconds (default 60, at most the host's maximum, 600 by default)"),
    background: z.boolean().optional().describe('Start detached and return a job id immediately'),
  }),
  danger: 'dangerous',
  readOnly: false,
  ...RUNS_A_COMMAND,
  // The command's own timeout plus time to stop it and collect the output.
  timeoutMs: (args) => (args.background || args.timeout_seconds === undefined ? undefined : args.timeout_seconds * 1000 + COMMAND_GRACE_MS),
  async execute(args, ctx) {
    const env = { ...NONINTERACTIVE_ENV, ...commandEnvOf(ctx.services) };
    const verdict = checkCommandBlacklist(args.command, { workspace: ctx.cwd, ...(env.HOME ? { home: env.HOME } : {}) });
    if (verdict.blocked) return { output: verdict.message, isError: true };
    if (args.background) return startBackground(args.command, env, ctx);
    const { defaultMs, maxMs } = commandTimeouts(ctx.services);
    const requested = args.timeout_seconds === undefined ? defaultMs : args.timeout_seconds * 1000;
    if (requested > maxMs) {
      throw new ToolError(
        `timeout_seconds ${args.timeout_seconds} is over the maximum of ${maxMs / 1000} s; use a smaller value, or background: true for long-running commands`,
      );
    }
    const result = await ctx.runner.run({
      command: args.command,
      cwd: ctx.cwd,
      env,
      timeoutMs: requested,
      signal: ctx.signal,
      callId: ctx.callId,
      sessionId: ctx.sessionId,
      onData: (chunk) => ctx.onOutput(chunk),
    });
    const body = modelCopyOfOutput(result.output, result.logPath);
    const output = body.length > 0 && !body.endsWith('\n') ? `${body}\n` : body;
    if (result.timedOut) {
      return {
        output: `${output}[command timed out after ${formatSeconds(requested)} and was stopped; the output above is what it printed until then. Raise timeout_seconds or use background: true]`,
        isError: true,
      };
    }
    if (ctx.signal.aborted) return { output: `${output}[command cancelled]`, isError: true };
    const exit = result.exitCode === null ? `killed by signal ${result.signal ?? 'unknown'}` : `exit code ${result.exitCode}`;
    const failed = result.exitCode !== 0;
    return { output: `${output}[${exit}]${sandboxNote(result)}${networkNote(result)}${failed ? withheldNote(result) : ''}`, isError: failed };
  },
});

async function startBackground(command: string, env: Record<string, string>, ctx: ToolContext): Promise<string> {
  const jobs = jobsOf(ctx.services);
  const { jobId, logPath } = await jobs.start({ command, cwd: ctx.cwd, env, sessionId: ctx.sessionId });
  return `Started in the background as job ${jobId}; output goes to ${logPath}. Read it with read_job_output (job_id "${jobId}"), stop it with stop_job.`;
}

/**
 * A write the OS sandbox refused reads as a plain "Read-only file system"; say why, so the model
 * asks for a grant instead of trying other spellings of the same write.
 */
function sandboxNote(result: { output: string; sandbox?: string }): string {
  if (!result.sandbox || !/read-only file system|device or resource busy|could not (?:lock|write) config file/i.test(result.output)) return '';
  const named = PROTECTED_NAMES.filter((name) => result.output.includes(name));
  // The most precise names: `.git` only when no `.git/…` location was named.
  const guarded = named.filter((name) => !named.some((other) => other !== name && other.startsWith(`${name}/`)));
  if (guarded.length > 0) {
    const name = guarded[0]!.replace(/^\//, '');
    return `\n[${guarded.join(', ')} ${guarded.length > 1 ? 'are' : 'is'} protected: git hooks and configuration, and Tandem's and other agents' settings, stay read-only to commands (they could run code later outside the sandbox or widen the agent's powers). Ordinary git work is not affected. If the change is really needed, ask the user to grant it for this session: sandbox:grant { path: "${name}", write: true } (TUI: /grant ${name} write)]`;
  }
  if (!/read-only file system/i.test(result.output)) return '';
  return `\n[the OS sandbox (${result.sandbox}) keeps everything outside the workspace and the granted directories read-only; if the command must write there, ask the user to grant that directory]`;
}

/** How the protected locations show up in an error message. */
const PROTECTED_NAMES = ['.git/hooks', '.git/config', '.tandem', '.mcp.json', '.claude', '.agents', '.git'];

/** Connections the sandbox's proxy refused, and why; a hint when a program went around the proxy. */
function networkNote(result: RunCommandResult): string {
  const lines = (result.notes ?? []).map((note) => `\n[network: ${note}]`);
  if (
    result.sandbox?.includes('network') &&
    /Network is unreachable|Could not resolve host|Temporary failure in name resolution|getaddrinfo|ENETUNREACH|EAI_AGAIN/.test(result.output)
  ) {
    lines.push(
      "\n[commands reach the network only through Tandem's proxy (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY are set); a program that ignores those variables cannot connect]",
    );
  }
  return lines.join('');
}

/** A failed command that names a variable it was not given: say it was withheld, and how to pass it. */
function withheldNote(result: RunCommandResult): string {
  const withheld = result.withheldEnv;
  if (!withheld) return '';
  const named = withheld.names.filter((name) => name.length >= 3 && new RegExp(`\\b${name}\\b`).test(result.output));
  return named
    .map((name) =>
      withheld.never.includes(name)
        ? `\n[${name} is withheld from commands: it holds a key or token of the Tandem server itself, which commands never get]`
        : `\n[${name} is withheld from commands (its name looks like a secret); add it to sandbox.passEnv in config.json to pass it]`,
    )
    .join('');
}

function formatSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
