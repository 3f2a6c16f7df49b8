import { type Command, InvalidArgumentError } from 'commander';

export interface DeskContext {
  dataDirOf(flag: string | undefined): string;
  done(code: number): void;
}

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

/**
 * Habits from other terminal agents: `tandem export SESSION` (a transcript as markdown or JSON)
 * and `tandem completion bash|zsh|fish` (scripts generated from this program's own command tree,
 * so a command added later completes by itself).
 */
export function registerDeskCommands(program: Command, context: DeskContext): void {
  program
    .command('export')
    .description("write a session's transcript as markdown (who said what, tool calls with arguments and results) or JSON (every event)")
    .argument('[session]', "session id, or a unique prefix of one (default: this folder's most recently used session)")
    .option('--format <format>', 'md or json', parseFormat, 'md')
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .option('--cwd <dir>', 'whose session to export when SESSION is not given (default: the current directory)')
    .option('--url <url>', 'server URL (default: the local server from <data-dir>/server.json)')
    .option('--token <token>', 'a token of that server (default: from the data directory)')
    .option('--data-dir <dir>', 'the local data directory (default $TANDEM_DATA_DIR or ~/.tandem)')
    .action(async (session: string | undefined, options: ExportFlags) => {
      const { exportSession } = await import('./export.js');
      context.done(await exportSession({ ...options, session, dataDir: context.dataDirOf(options.dataDir) }));
    });

  program
    .command('completion')
    .description('print a shell completion script: eval "$(tandem completion bash)" in ~/.bashrc; zsh and fish: see tandem completion --help')
    .argument('<shell>', SHELLS.join(' | '), parseShell)
    .addHelpText(
      'after',
      `
Install:
  bash   echo 'eval "$(tandem completion bash)"' >> ~/.bashrc
  zsh    tandem completion zsh > "\${fpath[1]}/_tandem"   (then start a new shell; needs compinit)
  fish   tandem completion fish > ~/.config/fish/completions/tandem.fish`,
    )
    .action(async (shell: Shell) => {
      const { completionScript } = await import('../completion/completion-script.js');
      process.stdout.write(completionScript(program, shell));
      context.done(0);
    });
}

interface ExportFlags {
  format: 'md' | 'json';
  output?: string;
  cwd?: string;
  url?: string;
  token?: string;
  dataDir?: string;
}

function parseFormat(value: string): 'md' | 'json' {
  const format = value.toLowerCase() === 'markdown' ? 'md' : value.toLowerCase();
  if (format !== 'md' && format !== 'json') throw new InvalidArgumentError(`expected md or json, got "${value}"`);
  return format;
}

function parseShell(value: string): Shell {
  const shell = SHELLS.find((name) => name === value.toLowerCase());
  if (!shell) throw new InvalidArgumentError(`expected ${SHELLS.join(', ')}, got "${value}"`);
  return shell;
}
