/** Root options that take a value (`tandem --cwd DIR -p …`): their value is not a command word. */
const ROOT_VALUE_OPTIONS = new Set(['--cwd', '--model', '--data-dir', '--port', '--name']);

/**
 * `tandem -p PROMPT …` is `tandem run -p PROMPT …`: when `-p` / `--print` comes before any
 * command word, `run` is put first (run takes the root's options too). Anything else is left as
 * it is. `args` are the user's arguments, without node and the script.
 */
export function printAsRun(args: readonly string[]): string[] {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return [...args];
    if (arg === '-p' || arg === '--print' || arg.startsWith('--print=') || /^-p./.test(arg)) return ['run', ...args];
    if (ROOT_VALUE_OPTIONS.has(arg)) {
      i++;
      continue;
    }
    if (!arg.startsWith('-')) return [...args];
  }
  return [...args];
}
