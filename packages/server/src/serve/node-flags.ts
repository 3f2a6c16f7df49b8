/**
 * The V8 flags a Tandem server process runs with: the background server `tandem` starts, and
 * `tandem serve` through the launcher (scripts/install-launcher.sh writes the same list).
 *
 * The young generation is capped at 4 MB per semi-space; V8 lets it grow to 16 MB, sized for a
 * short-lived program's throughput. A server holds little between turns, and measured with
 * `pnpm bench serve` (issue 15) a 200-call turn peaked ~20 MB lower (160 → 138 MB) for ~30 ms
 * more garbage collection over the whole run.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4'];

/**
 * The server flags to put before node's own arguments: each one the user has not set already, in
 * node's arguments or NODE_OPTIONS (V8 reads `--max_semi_space_size` as the same flag).
 */
export function serverNodeFlags(execArgv: readonly string[], nodeOptions = process.env.NODE_OPTIONS ?? ''): string[] {
  const flagName = (arg: string) => arg.split('=')[0]!.replace(/_/g, '-');
  const given = new Set([...execArgv, ...nodeOptions.split(/\s+/)].map(flagName));
  return SERVER_NODE_FLAGS.filter((flag) => !given.has(flagName(flag)));
}
