import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root; the CLI runs from TypeScript source there under tsx (no build needed). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const MAIN_TS = 'packages/cli/src/main.ts';

/** `node … main.ts` as argv (tandem-source resolves workspace packages to their sources). */
export const NODE_ARGS = ['--conditions=tandem-source', '--import', 'tsx', MAIN_TS];

/** The shell line that runs `tandem ARGS` from the repo root, then says how it exited. */
export function tandemShellLine(args: string[], options: { cwd?: string } = {}): string {
  const quoted = [...NODE_ARGS.map((arg) => (arg === MAIN_TS ? `${REPO_ROOT}${MAIN_TS}` : arg)), ...args].map(shellQuote).join(' ');
  const tsxLoader = `${REPO_ROOT}node_modules/tsx/dist/loader.mjs`;
  // --import tsx resolves from the cwd; outside the repo, point at tsx's loader by path.
  const line = `${shellQuote(process.execPath)} ${quoted.replace("'--import' 'tsx'", `'--import' ${shellQuote(tsxLoader)}`)}`;
  return `cd ${shellQuote(options.cwd ?? REPO_ROOT)} && ${line}; echo "TANDEM EXITED $?"; sleep 600`;
}

/** Runs `tandem ARGS` to completion and returns its output and exit code. */
export function runTandem(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...NODE_ARGS, ...args], { cwd: REPO_ROOT, env, timeout: 180_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
