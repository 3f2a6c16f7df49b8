#!/usr/bin/env node
// `node --import tsx packages/server/src/bin.ts serve [--host] [--port] [--data-dir]`:
// the server on its own, for tests and for running without the cli package.
import { CommanderError } from 'commander';
import { runServe } from './serve/run-serve.js';

const argv = process.argv.slice(2);
if (argv[0] !== undefined && argv[0] !== 'serve' && !argv[0].startsWith('-')) {
  process.stderr.write(`unknown command "${argv[0]}"; usage: serve [--host HOST] [--port PORT] [--data-dir DIR]\n`);
  process.exit(2);
}
runServe(argv).catch((err: unknown) => {
  if (err instanceof CommanderError) process.exit(err.exitCode);
  process.stderr.write(`tandem serve: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
