import { type Command, CommanderError } from 'commander';
import { defaultClientName } from '../client-name.js';

// `tandem run` / `tandem -p`, `tandem acp`, `tandem mcp serve`: the entrances for scripts, editors
// and other agents. Each loads its module when it runs, never for `tandem help`.

export interface EntranceContext {
  dataDirOf(flag: string | undefined): string;
  done(code: number): void;
  /** Port of a local server started in the background (the root's default). */
  defaultPort: number;
  parsePort(value: string): number;
  /** `provider/model`, checked for its form. */
  parseModel(value: string): string;
}

const DATA_DIR_HELP = 'the local data directory (default $TANDEM_DATA_DIR or ~/.tandem)';
const URL_HELP = 'a tandem server to use (default: the local server, started in the background when none runs)';
const TOKEN_HELP = 'its control token (default $TANDEM_TOKEN, or the one in the data directory)';
const USAGE_EXIT = 2;

const RUN_HELP_AFTER = `
The prompt is PROMPT, and stdin's text when stdin is not a terminal (appended after PROMPT).
stdout carries only the answer (text), one JSON object (json), or every session event as a JSON
line then the result line (stream-json); progress, tool calls and warnings go to stderr.

Exit status: 0 the turn finished; 1 an agent or model error, a limit, or the server went away;
2 bad usage; 3 a permission was denied or not answered in time; 130 interrupted (Ctrl-C cancels
the turn).

The run is an ordinary turn of a live session: \`tandem attach SESSION\` or the web viewer can
watch it, and in the default approval mode (ask) answer its permission requests.

Examples:
  tandem run "fix the failing test"
  git diff | tandem -p "review this change" --output-format json
  tandem run --continue --approval-mode auto-edit "now add a test for it"
  tandem run --approval-mode full-auto --max-iterations 20 "update the changelog"`;

/** The flags of `tandem acp` and `tandem mcp serve`. */
interface ServeFlags {
  cwd?: string;
  url?: string;
  token?: string;
  ca?: string;
  dataDir?: string;
  port: number;
  name: string;
}

interface RunCommandFlags {
  print?: string[];
  cwd?: string;
  session?: string;
  continue?: boolean;
  model?: string;
  approvalMode?: string;
  outputFormat?: string;
  maxIterations?: string;
  url?: string;
  token?: string;
  quiet?: boolean;
  dataDir?: string;
  port: number;
  name: string;
}

export function registerEntranceCommands(program: Command, context: EntranceContext): void {
  const run = program
    .command('run')
    .description('run one turn without the TUI, for scripts and CI (also `tandem -p PROMPT`)')
    .argument('[prompt...]', 'the prompt (stdin is appended when it is not a terminal)')
    .option('-p, --print <prompt>', 'the prompt (the same as PROMPT; `tandem -p PROMPT` is `tandem run PROMPT`)', collect, [])
    .option('--cwd <dir>', 'the folder to work in (default: the current directory)')
    .option('--session <id>', 'run in this session (an id or a unique prefix; tandem ls lists them)')
    .option('-c, --continue', "run in this folder's most recent session")
    .option('--model <provider/model>', "a new session's model; an existing session is switched to it", context.parseModel)
    .option('--approval-mode <mode>', "ask | auto-edit | read-only | full-auto, for this run (default: the session's own, ask for a new session)")
    .option('--output-format <format>', 'text | json | stream-json (default text)')
    .option('--max-iterations <n>', 'at most this many model requests in the turn (1-1000)')
    .option('-q, --quiet', 'nothing on stderr but errors and unanswered permission requests');
  withServerFlags(run, context, 'your name as other attached clients see it')
    .addHelpText('after', RUN_HELP_AFTER)
    .action(async (words: string[], options: RunCommandFlags) => {
      const { runHeadless } = await import('../run/run-command.js');
      const { print = [], dataDir, ...flags } = options;
      context.done(await runHeadless({ ...flags, prompt: [...print, ...words], dataDir: context.dataDirOf(dataDir) }));
    });

  const acp = program
    .command('acp')
    .description('an Agent Client Protocol agent on stdio, for editors (Zed, JetBrains, Neovim …): each ACP session is a live Tandem session')
    .option('--cwd <dir>', 'the folder of sessions the editor opens without one (default: the current directory)');
  withServerFlags(acp, context, 'your name as other attached clients see it').action(async (options: ServeFlags) => {
    const { serveAcp } = await import('../acp/acp-serve.js');
    context.done(await serveAcp({ ...options, dataDir: context.dataDirOf(options.dataDir) }));
  });

  const mcp = program.commands.find((command) => command.name() === 'mcp');
  if (!mcp) throw new Error('register the mcp commands before the entrances');
  const serve = mcp
    .command('serve')
    .description('an MCP server on stdio with tandem_run, tandem_sessions and tandem_events, so another agent can hand work to Tandem')
    .option('--cwd <dir>', 'the folder tandem_run works in when the call names none (default: the current directory)');
  withServerFlags(serve, context, 'the name other attached clients see').action(async (options: ServeFlags) => {
    const { serveMcp } = await import('../mcp-serve/mcp-serve.js');
    context.done(await serveMcp({ ...options, dataDir: context.dataDirOf(options.dataDir) }));
  });
}

/**
 * The flags every entrance shares, to reach a Tandem server (or start a local one in the
 * background) and to name oneself there; a bad flag is bad usage (exit status 2).
 */
function withServerFlags(command: Command, context: EntranceContext, nameHelp: string): Command {
  return command
    .option('--url <url>', URL_HELP)
    .option('--token <token>', TOKEN_HELP)
    .option('--ca <file>', 'a certificate (PEM) to trust for an https:// --url, e.g. its self-signed one')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .option('--port <port>', 'port for a local server started in the background', context.parsePort, context.defaultPort)
    .option('--name <name>', nameHelp, defaultClientName())
    .exitOverride(usageExit);
}

/** A bad flag of these commands is bad usage, exit status 2 (help and --version stay 0). */
function usageExit(err: CommanderError): never {
  if (err.exitCode === 0) throw err;
  throw new CommanderError(USAGE_EXIT, err.code, err.message);
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
