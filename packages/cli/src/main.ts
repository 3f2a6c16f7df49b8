#!/usr/bin/env node
import { buildProgram, CommanderError, UsageError, type Outcome } from './program.js';
import { printAsRun } from './run/print-flag.js';

// The `tandem` binary. Each command reports an outcome; a TUI or a listing ends the process
// with its exit code (stdin and sockets would otherwise keep it alive), a server keeps running.
const program = buildProgram({
  done(outcome: Outcome) {
    if (outcome !== 'running') process.exit(outcome);
  },
});
program.exitOverride();

// `tandem -p PROMPT` is `tandem run -p PROMPT`.
program.parseAsync([...process.argv.slice(0, 2), ...printAsRun(process.argv.slice(2))]).catch((err: unknown) => {
  // Commander has printed its own message (bad option, missing argument, --help).
  if (err instanceof CommanderError) process.exit(err.exitCode);
  process.stderr.write(`tandem: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(err instanceof UsageError ? 2 : 1);
});
