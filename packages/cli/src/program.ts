import { resolve } from 'node:path';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { defaultDataDir, runServe } from '@tandem/server';
import { defaultClientName } from './client-name.js';
import { registerAdminCommands } from './commands/admin.js';
import { attach } from './commands/attach.js';
import { listSessions } from './commands/list.js';
import { openLocal } from './commands/open.js';

/** What a command's action ends with: an exit code, or `'running'` for a server that keeps going. */
export type Outcome = number | 'running';

export interface ProgramHooks {
  /** Called once with the outcome of whichever command ran. */
  done(outcome: Outcome): void;
}

const DEFAULT_PORT = 7777;

/**
 * The `tandem` command line. Each action resolves `hooks.done` with an exit code; errors
 * propagate to main, which prints them as one line.
 */
export function buildProgram(hooks: ProgramHooks): Command {
  const program = new Command('tandem')
    .description('a tool-using AI agent in a headless server, driven from one or more terminals')
    .enablePositionalOptions()
    .option('--data-dir <dir>', 'the local data directory (default $TANDEM_DATA_DIR or ~/.tandem)')
    .option('--port <port>', 'port for a local server started in the background', parsePort, DEFAULT_PORT)
    .option('--name <name>', 'your name as other attached clients see it', defaultClientName())
    .action(async (options: { dataDir?: string; port: number; name: string }) => {
      hooks.done(await openLocal({ dataDir: dataDirOf(options.dataDir), port: options.port, name: options.name }));
    });

  program
    .command('attach')
    .description('open the TUI on a session of any server (the most recent one when SESSION is not given)')
    .argument('[session]', 'session id, or a unique prefix of one (tandem ls lists them)')
    .option('--url <url>', 'server URL (default: the local server from <data-dir>/server.json)')
    .option('--token <token>', 'control token, or the view token with --viewer (default: from the data directory)')
    .option('--viewer', 'watch only: attach as a viewer')
    .option('--name <name>', 'your name as other attached clients see it', defaultClientName())
    .option('--data-dir <dir>', 'the local data directory (default $TANDEM_DATA_DIR or ~/.tandem)')
    .action(async (session: string | undefined, options: { url?: string; token?: string; viewer?: boolean; name: string; dataDir?: string }) => {
      hooks.done(await attach({ ...options, session, dataDir: dataDirOf(options.dataDir) }));
    });

  program
    .command('ls')
    .description("list a server's sessions")
    .option('--url <url>', 'server URL (default: the local server from <data-dir>/server.json)')
    .option('--token <token>', 'a token of that server (default: from the data directory)')
    .option('--json', 'print JSON instead of a table')
    .option('--data-dir <dir>', 'the local data directory (default $TANDEM_DATA_DIR or ~/.tandem)')
    .action(async (options: { url?: string; token?: string; json?: boolean; dataDir?: string }) => {
      hooks.done(await listSessions({ ...options, dataDir: dataDirOf(options.dataDir) }));
    });

  program
    .command('serve')
    .description('run the headless server in the foreground: serve [--host 127.0.0.1] [--port 7777] [--data-dir ~/.tandem]')
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async (_options: unknown, command: Command) => {
      // runServe parses its own flags (and prints its own --help), so they stay in one place.
      await runServe(['serve', ...command.args]);
      hooks.done('running');
    });

  // ── admin commands: models, permissions, audit, memory ────────────────────────────────
  registerAdminCommands(program, { dataDirOf, done: (code) => hooks.done(code) });

  return program;
}

function dataDirOf(flag: string | undefined): string {
  return flag ? resolve(flag) : defaultDataDir();
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError(`expected a port 0..65535, got "${value}"`);
  return port;
}

export { CommanderError };
