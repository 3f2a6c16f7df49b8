import { z } from 'zod';
import { defineTool, NONINTERACTIVE_ENV, RUNS_A_COMMAND, type AnyTool, type CommandRunner } from '@tandem/core';
import { checkCommandBlacklist } from '@tandem/coding-tools';

export const PACKAGE_INSTALL = 'package_install';

/** A dependency install may take this long (npm, pip on a slow network). */
export const INSTALL_TIMEOUT_MS = 15 * 60_000;

/**
 * `package_install { package, command }`: an external package's declared dependency install,
 * run in the package's folder through run_command's path (the blacklist, the sandbox, the pty),
 * with that folder the one place it may write. Its arguments come from packages.json, never
 * from a model; it is a host call, not offered to models.
 */
export function packageInstallTool(deps: { dirOf(name: string): string; runnerFor(dir: string): CommandRunner; env(): Record<string, string> }): AnyTool {
  return defineTool({
    name: PACKAGE_INSTALL,
    description: "Installs an external package's dependencies in its folder, in the OS sandbox.",
    schema: z.object({ package: z.string().min(1), command: z.string().min(1) }),
    danger: 'dangerous',
    readOnly: false,
    // A command: the blacklist, the rules and the question are about its command line.
    ...RUNS_A_COMMAND,
    summary: (args) => `${args.package}: ${args.command}`,
    // Asked once per package: the package registry remembers the answer, no rule covers the next.
    alwaysAsk: true,
    unknownWrites: true,
    timeoutMs: () => INSTALL_TIMEOUT_MS + 10_000,
    async execute(args, ctx) {
      const dir = deps.dirOf(args.package);
      const verdict = checkCommandBlacklist(args.command, { workspace: dir });
      if (verdict.blocked) return { output: verdict.message, isError: true };
      const result = await deps.runnerFor(dir).run({
        command: args.command,
        cwd: dir,
        env: { ...NONINTERACTIVE_ENV, ...deps.env() },
        timeoutMs: INSTALL_TIMEOUT_MS,
        signal: ctx.signal,
        callId: ctx.callId,
        sessionId: ctx.sessionId,
        onData: (chunk) => ctx.onOutput(chunk),
      });
      const tail = result.output.length > 8_000 ? `…${result.output.slice(-8_000)}` : result.output;
      if (result.timedOut) return { output: `${tail}\n[the install timed out after ${INSTALL_TIMEOUT_MS / 60_000} minutes and was stopped]`, isError: true };
      const exit = result.exitCode === null ? `killed by signal ${result.signal ?? 'unknown'}` : `exit code ${result.exitCode}`;
      return { output: `${tail}${tail.endsWith('\n') || tail === '' ? '' : '\n'}[${exit}]`, isError: result.exitCode !== 0 };
    },
  });
}
