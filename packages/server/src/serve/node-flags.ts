/**
 * The V8 flags a Tandem server process runs with: the background server `tandem` starts, and
 * `tandem serve` through the launcher (scripts/install-launcher.sh writes the same list).
 *
 * - `--max-semi-space-size=4`: the young generation is capped at 4 MB per semi-space; V8 lets
 *   it grow to 16 MB, sized for a short-lived program's throughput. A server holds little
 *   between turns, and measured with `pnpm bench serve` (issue 15) a 200-call turn peaked ~20 MB
 *   lower (160 → 138 MB) for ~30 ms more garbage collection over the whole run.
 * - `--liftoff-only`: WebAssembly stays in V8's baseline code (Liftoff) instead of being
 *   recompiled by its optimizing tier once hot. The only WebAssembly a server runs is undici's
 *   HTTP parser, which reads every model reply; its optimizing compile took ~10-20 MB of memory
 *   for a moment during the first turn (a fresh server's 200-call turn peaked at 114-119 MB
 *   instead of 129-134) and background CPU, while the parsing itself is a few hundredths of a
 *   millisecond per reply either way: CPU per reply was the same or lower without the optimizing
 *   tier over 3,000 streamed replies (benchmarks.md, session 10).
 * - `--interrupt-budget=540672` (8× V8's 67,584): a function is handed to the optimizing compiler
 *   (TurboFan) only once it has run eight times as much code. An agent step runs a wide path
 *   (provider request, stream parsing, guards, audit, event log, fan-out) of many lukewarm
 *   functions; with V8's default a fresh server spent ~40% of its CPU compiling them on
 *   background threads, which on a small machine compete with the turn itself. Measured with
 *   `pnpm bench serve` (benchmarks.md, session 11): a fresh server's step −28% wall time and
 *   −40% CPU, a warmed one's −10-20%, peak RSS −6-8 MB; a multi-second CPU-bound loop (replaying
 *   100,000 events whole, which attach no longer does) is 10-15% slower, since it too is
 *   optimized later.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4', '--liftoff-only', '--interrupt-budget=540672'];

/**
 * The server flags to put before node's own arguments: each one the user has not set already, in
 * node's arguments or NODE_OPTIONS (V8 reads `--max_semi_space_size` as the same flag, and
 * `--no-liftoff-only` sets the same flag off).
 */
export function serverNodeFlags(execArgv: readonly string[], nodeOptions = process.env.NODE_OPTIONS ?? ''): string[] {
  const flagName = (arg: string) =>
    arg
      .split('=')[0]!
      .replace(/_/g, '-')
      .replace(/^--no-/, '--');
  const given = new Set([...execArgv, ...nodeOptions.split(/\s+/)].map(flagName));
  return SERVER_NODE_FLAGS.filter((flag) => !given.has(flagName(flag)));
}
