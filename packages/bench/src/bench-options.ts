/** Flags of `pnpm bench` (anything else on the command line picks benches by name). */
export interface BenchOptions {
  /** Fewer runs, so `pnpm bench --quick` finishes in about a minute. */
  quick: boolean;
  /** Spawned Tandem processes run packages/*\/src through tsx instead of the built dist. */
  fromSource: boolean;
  /** Interleaved runs of the serve-vs-SDK and harness-overhead benches (serve vs sdk: default 5, harness overhead: 7; 3 with --quick; 0 to only profile). */
  runs: number | undefined;
  /** Write a CPU profile of one extra `tandem serve` run here and print its top entries. */
  cpuProfDir: string | undefined;
  /** The CLI of the coding agent pi: serve-vs-sdk adds it as a baseline (not a dependency of the repo). */
  piCli: string | undefined;
  /** Claude Code's CLI (a path, or `install` to install the npm package into the user's cache): the cost bench adds it. */
  claudeCode: string | undefined;
}

export function parseBenchArgs(argv: readonly string[]): { options: BenchOptions; names: string[] } {
  const options: BenchOptions = { quick: false, fromSource: false, cpuProfDir: undefined, runs: undefined, piCli: undefined, claudeCode: undefined };
  const names: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--quick') options.quick = true;
    else if (arg === '--from-source') options.fromSource = true;
    else if (arg === '--cpu-prof') options.cpuProfDir = argv[++i] ?? 'bench-profiles';
    else if (arg === '--runs') options.runs = runsOf(argv[++i]);
    else if (arg === '--pi') options.piCli = pathOf('--pi', argv[++i]);
    else if (arg === '--claude-code') options.claudeCode = pathOf('--claude-code', argv[++i]);
    else if (arg.startsWith('--'))
      throw new Error(
        `unknown flag ${arg}; flags: --quick, --from-source, --cpu-prof DIR, --runs N, --pi PATH_TO_PI_CLI, --claude-code PATH_TO_CLAUDE|install`,
      );
    else names.push(arg);
  }
  return { options, names };
}

function runsOf(value: string | undefined): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 50) throw new Error(`--runs takes a whole number 0..50, got ${value ?? 'nothing'}`);
  return n;
}

function pathOf(flag: string, value: string | undefined): string {
  if (!value || value.startsWith('--')) throw new Error(`${flag} takes a path, got ${value ?? 'nothing'}`);
  return value;
}
