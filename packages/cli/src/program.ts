import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { defaultClientName } from './client-name.js';
import { registerAdminCommands } from './commands/admin.js';
import { registerAgentsCommand } from './commands/agents.js';
import { registerEntranceCommands } from './commands/entrances.js';
import { registerMcpCommands } from './commands/mcp.js';
import { registerSkillsCommand } from './commands/skills.js';
import { registerRoutineCommands } from './commands/routines.js';
import { registerShareCommands } from './commands/share.js';
import { defaultDataDir } from './data-dir.js';
import { unknownCommandMessage } from './unknown-command.js';
import { parseModelSpec } from './workspace.js';

// Each command loads what it needs when it runs: the server, core and the TUI take seconds of
// CPU to import, which `tandem help` or a mistyped flag should not pay.

/** What a command's action ends with: an exit code, or `'running'` for a server that keeps going. */
export type Outcome = number | 'running';

export interface ProgramHooks {
  /** Called once with the outcome of whichever command ran. */
  done(outcome: Outcome): void;
}

const DEFAULT_PORT = 7777;
const DATA_DIR_HELP = 'the local data directory (default $TANDEM_DATA_DIR or ~/.tandem)';
const URL_HELP = 'server URL (default: the local server from <data-dir>/server.json)';
const MODEL_HELP = "a new session's model, provider/model (e.g. anthropic/claude-sonnet-4-5); an existing session is switched to it";
const CWD_HELP = 'the folder to work on (default: the current directory)';
const CA_HELP = 'a certificate (PEM) to trust for an https:// server, e.g. its self-signed one';

const ROOT_HELP_AFTER = `
Examples:
  tandem                         open this folder's session (starts the local server if needed)
  tandem -p "fix the test"       one turn without the TUI, for scripts and CI (tandem run --help)
  tandem --cwd ~/src/app         open another folder's session
  tandem attach --viewer         watch this folder's session from a second terminal
  tandem share --role approver --name carla --expires 2h
                                 let Carla watch this folder's session and answer its permission requests
  tandem status                  is the local server running, which providers have a key
  tandem restart                 after exporting a new API key

Environment:
  TANDEM_DATA_DIR   data directory (default ~/.tandem)
  TANDEM_MODEL      default model of new sessions (provider/model)
  OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY, GROQ_API_KEY, OPENROUTER_API_KEY,
  XAI_API_KEY, OLLAMA_HOST, LLAMACPP_BASE_URL, …  provider keys and endpoints (read by the
                    server when it starts: \`tandem restart\` after changing them)
  NO_COLOR          no colour in the output`;

/**
 * The `tandem` command line. Each action resolves `hooks.done` with an exit code; errors
 * propagate to main, which prints them as one line.
 */
export function buildProgram(hooks: ProgramHooks): Command {
  const program = new Command('tandem')
    .description('a tool-using AI agent in a headless server, driven from one or more terminals')
    .usage('[options] [command]')
    .version(CLI_VERSION, '-V, --version', 'print the version')
    .enablePositionalOptions()
    .helpCommand('help [command]', 'show help for tandem or for one command')
    .option('--cwd <dir>', CWD_HELP)
    .option('--model <provider/model>', MODEL_HELP, parseModel)
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .option('--port <port>', 'port for a local server started in the background', parsePort, DEFAULT_PORT)
    .option('--name <name>', 'your name as other attached clients see it', defaultClientName())
    .addHelpText('after', ROOT_HELP_AFTER)
    .action(async (options: { cwd?: string; model?: string; dataDir?: string; port: number; name: string }, command: Command) => {
      const [word] = command.args;
      if (word !== undefined)
        throw new UsageError(
          unknownCommandMessage(
            word,
            program.commands.map((c) => c.name()),
          ),
        );
      if (!process.stdin.isTTY) {
        // `echo "…" | tandem`: no terminal to draw a TUI on; run the piped prompt as `tandem run` does.
        const { runHeadless } = await import('./run/run-command.js');
        hooks.done(
          await runHeadless({
            prompt: [],
            dataDir: dataDirOf(options.dataDir),
            port: options.port,
            name: options.name,
            cwd: options.cwd,
            model: options.model,
            noPrompt:
              'stdin is not a terminal, so there is no TUI to open, and it held no prompt to run; run `tandem` in a terminal, or pipe a prompt: echo "fix the test" | tandem (or tandem run PROMPT)',
          }),
        );
        return;
      }
      if (!process.stdout.isTTY) {
        throw new UsageError('the TUI needs a terminal, and stdout is not one; for one turn in a script use `tandem run PROMPT` (or `tandem -p PROMPT`)');
      }
      const { openLocal } = await import('./commands/open.js');
      hooks.done(await openLocal({ dataDir: dataDirOf(options.dataDir), port: options.port, name: options.name, cwd: options.cwd, model: options.model }));
    });

  program
    .command('attach')
    .description("open the TUI on a session of any server (this folder's session when SESSION is not given)")
    .argument('[session]', 'session id, or a unique prefix of one (tandem ls lists them)')
    .option('--url <url>', URL_HELP)
    .option('--token <token>', 'control token, view token, or a share token from `tandem share` (default: from the data directory)')
    .option('--viewer', 'watch only: attach as a viewer (the view token and viewer or approver shares always do)')
    .option('--ca <file>', CA_HELP)
    .option('--cwd <dir>', 'whose session to open when SESSION is not given (default: the current directory)')
    .option('--model <provider/model>', MODEL_HELP, parseModel)
    .option('--name <name>', 'your name as other attached clients see it', defaultClientName())
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action(async (session: string | undefined, options: AttachFlags) => {
      const { attach } = await import('./commands/attach.js');
      hooks.done(await attach({ ...options, session, dataDir: dataDirOf(options.dataDir) }));
    });

  program
    .command('ls')
    .description("list a server's sessions: id, folder, status, model, approval mode, attached clients, title")
    .option('--url <url>', URL_HELP)
    .option('--token <token>', 'a token of that server (default: from the data directory)')
    .option('--ca <file>', CA_HELP)
    .option('--json', 'print JSON instead of a table')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action(async (options: { url?: string; token?: string; ca?: string; json?: boolean; dataDir?: string }) => {
      const { listSessions } = await import('./commands/list.js');
      hooks.done(await listSessions({ ...options, dataDir: dataDirOf(options.dataDir) }));
    });

  program
    .command('rm')
    .description('delete a session: its conversation log and its entry (refused while a turn runs)')
    .argument('<session>', 'session id, or a unique prefix of one (tandem ls lists them)')
    .option('--url <url>', URL_HELP)
    .option('--token <token>', 'the control token of that server (default: from the data directory)')
    .option('--ca <file>', CA_HELP)
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action(async (session: string, options: { url?: string; token?: string; ca?: string; dataDir?: string }) => {
      const { removeSession } = await import('./commands/remove.js');
      hooks.done(await removeSession({ ...options, session, dataDir: dataDirOf(options.dataDir) }));
    });

  program
    .command('undo')
    .description(
      "take the last turn of a session back, files and conversation (default: this folder's newest session); files changed since are left alone and listed",
    )
    .argument('[session]', 'session id, or a unique prefix of one (tandem ls lists them)')
    .option('--turns <n>', 'how many turns to take back (default 1)', (v: string) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) throw new Error(`--turns: "${v}" is not a whole number of turns`);
      return n;
    })
    .option('--cwd <dir>', 'the folder whose session to use (default: the current one)')
    .option('--json', 'print { sessionId, turns, files, conflicts }')
    .option('--url <url>', URL_HELP)
    .option('--token <token>', 'the control token of that server (default: from the data directory)')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action(async (session: string | undefined, options: { turns?: number; cwd?: string; json?: boolean; url?: string; token?: string; dataDir?: string }) => {
      const { undoTurns } = await import('./commands/undo.js');
      hooks.done(await undoTurns({ ...options, ...(session ? { session } : {}), dataDir: dataDirOf(options.dataDir) }));
    });

  program
    .command('status')
    .description('the local server: url, pid, version, uptime, sessions, running turns, providers with a key, sandbox')
    .option('--json', 'print JSON')
    .option('--url <url>', 'ask this server instead of the local one')
    .option('--token <token>', 'a token of that server (default: from the data directory)')
    .option('--ca <file>', CA_HELP)
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action(async (options: { json?: boolean; url?: string; token?: string; ca?: string; dataDir?: string }) => {
      const { showStatus } = await import('./commands/status.js');
      hooks.done(await showStatus({ ...options, dataDir: dataDirOf(options.dataDir) }));
    });

  program
    .command('stop')
    .description('stop the local background server of the data directory (refused while a turn runs unless --force)')
    .option('--force', 'stop even while turns run; they end as interrupted')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action(async (options: { force?: boolean; dataDir?: string }) => {
      const { stopLocal } = await import('./commands/lifecycle.js');
      hooks.done(await stopLocal({ dataDir: dataDirOf(options.dataDir), force: options.force, port: DEFAULT_PORT }));
    });

  program
    .command('restart')
    .description("restart the local server with this shell's environment, on the same port (refused while a turn runs unless --force)")
    .option('--force', 'restart even while turns run; they end as interrupted')
    .option('--port <port>', 'port when no server was running', parsePort, DEFAULT_PORT)
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action(async (options: { force?: boolean; port: number; dataDir?: string }) => {
      const { restartLocal } = await import('./commands/lifecycle.js');
      hooks.done(await restartLocal({ dataDir: dataDirOf(options.dataDir), force: options.force, port: options.port }));
    });

  program
    .command('serve')
    .description(
      'run the headless server in the foreground: serve [--host 127.0.0.1] [--port 7777] [--data-dir ~/.tandem] [--redis URL [--node-id ID] [--lease-seconds 15] [--redis-optional]]',
    )
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async (_options: unknown, command: Command) => {
      // runServe parses its own flags (and prints its own --help), so they stay in one place.
      const { runServe } = await import('@tandem/server');
      await runServe(['serve', ...command.args]);
      hooks.done('running');
    });

  // ── sharing: one person, one session, one role ───────────────────────────────────────
  registerShareCommands(program, { dataDirOf, done: (code) => hooks.done(code) });
  // ── admin commands: models, permissions, audit, memory ────────────────────────────────
  registerAdminCommands(program, { dataDirOf, done: (code) => hooks.done(code) });
  // ── extensions: MCP servers ──────────────────────────────────────────────────────────
  registerMcpCommands(program, { dataDirOf, done: (code) => hooks.done(code) });
  // ── entrances: tandem run / -p, tandem acp, tandem mcp serve ─────────────────────────
  registerEntranceCommands(program, { dataDirOf, done: (code) => hooks.done(code), defaultPort: DEFAULT_PORT, parsePort, parseModel });
  registerSkillsCommand(program, { dataDirOf, done: (code) => hooks.done(code) });
  // ── multi-agent: agent definitions ───────────────────────────────────────────────────
  registerAgentsCommand(program, { dataDirOf, done: (code) => hooks.done(code) });
  // ── assistant: routines ──────────────────────────────────────────────────────────────
  registerRoutineCommands(program, { dataDirOf, done: (code) => hooks.done(code) });

  // A word after `tandem` that is no command reaches the root action, which names it (set last:
  // subcommands copy the root's settings when created, and must keep refusing extra arguments).
  program.allowExcessArguments();
  return program;
}

interface AttachFlags {
  url?: string;
  token?: string;
  viewer?: boolean;
  ca?: string;
  cwd?: string;
  model?: string;
  name: string;
  dataDir?: string;
}

/** A mistake in how tandem was called: main prints it and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

function dataDirOf(flag: string | undefined): string {
  return flag ? resolve(flag) : defaultDataDir();
}

/** This package's version (package.json sits one level above src/ and dist/). */
const CLI_VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidArgumentError(`expected a port number 0..65535, got "${value}"`);
  }
  return port;
}

function parseModel(value: string): string {
  try {
    return parseModelSpec(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

export { CommanderError };
