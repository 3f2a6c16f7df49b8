import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built `tandem` (packages/cli/dist/main.js): what the launcher runs; `pnpm build` makes it. */
export const BUILT_MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built `tandem ARGS` in `cwd` to completion with exactly `env` (plus PATH and HOME). */
export function runBuilt(args: string[], options: { env: NodeJS.ProcessEnv; cwd: string }): Promise<CliRun> {
  return new Promise((resolve) => {
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env };
    execFile(process.execPath, [BUILT_MAIN, ...args], { cwd: options.cwd, env, timeout: 400_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Whether a process with this pid exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
