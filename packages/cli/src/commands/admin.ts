import type { Command } from 'commander';

/**
 * The place for `tandem models | permissions | audit | memory`. Each is a thin commander
 * wrapper around a `run…Command` function exported by @tandem/server (parsing and output live
 * there, beside the data they read). Register them here, one `program.command(...)` each, e.g.
 *
 *   program.command('models').description('list the model catalog')
 *     .action(async () => exit(await runModelsCommand({ dataDir: dataDirOf(program) })));
 *
 * Nothing is registered until those functions exist, so `tandem --help` never lists a command
 * that cannot run.
 */
export function registerAdminCommands(_program: Command): void {
  // intentionally empty for now: see the comment above
}
