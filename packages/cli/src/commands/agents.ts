import type { Command } from 'commander';
import type { AgentEntry } from '@tandem/server';
import { plainTable } from '../plain-table.js';
import { tildePath } from '../session-table.js';
import { registerEvolutionCommand } from './agent-evolution.js';
import type { AgentsCommandContext } from './agents-context.js';

export type { AgentsCommandContext } from './agents-context.js';

const MAX_DESCRIPTION = 80;

/**
 * `tandem agents`: every agent file of this folder (`.tandem/agents`) and of the user
 * (`<data-dir>/agents`), read from disk (no server needed). Invalid files are listed and also
 * reported on stderr with the file and the field; the exit code is then 1.
 */
export function registerAgentsCommand(program: Command, context: AgentsCommandContext): void {
  const agents = program
    .command('agents')
    .description(
      'list agent definitions (.tandem/agents/NAME.md, .claude/agents/NAME.md, <data-dir>/agents/NAME.md, ~/.claude/agents): name, model, tools, interactive, file; invalid files with the field to fix, and what was left out',
    )
    .option('--cwd <dir>', 'whose project agents to list (default: the current directory)')
    .option('--json', 'print JSON')
    .option('--data-dir <dir>', 'the local data directory (default $TANDEM_DATA_DIR or ~/.tandem)')
    .action(async (options: { cwd?: string; json?: boolean; dataDir?: string }) => {
      const [{ homedir }, { workspaceDir }, { agentRoots, discoverAgents, formatAgentFileError }] = await Promise.all([
        import('node:os'),
        import('../workspace.js'),
        import('@tandem/server'),
      ]);
      const { entries } = discoverAgents(agentRoots({ workspace: workspaceDir(options.cwd), dataDir: context.dataDirOf(options.dataDir), home: homedir() }));
      process.stdout.write(options.json ? `${JSON.stringify(entries, null, 2)}\n` : formatAgents(entries, homedir()));
      const invalid = entries.filter((e) => e.status === 'invalid');
      for (const entry of invalid) if (entry.error) process.stderr.write(`tandem: invalid agent file ${formatAgentFileError(entry.error)}\n`);
      for (const entry of entries)
        for (const warning of entry.warnings ?? []) process.stderr.write(`tandem: agent ${entry.name} (${entry.file}): ${warning}\n`);
      context.done(invalid.length > 0 ? 1 : 0);
    });
  registerExternalCommands(agents, context);
  registerEvolutionCommand(agents, context);
}

/**
 * `tandem agents external [--json]`: the common agent CLIs found on PATH (Claude Code, Codex,
 * opencode, Gemini CLI) with the definition each would get; `tandem agents external add NAME
 * [--project]` writes it. Nothing is defined until a person asks for it.
 */
function registerExternalCommands(agents: Command, context: AgentsCommandContext): void {
  const external = agents
    .command('external')
    .description('the agent CLIs on your PATH (claude, codex, opencode, gemini) that can be defined as external agents, with their default command')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const { agentClisOnPath, AGENT_CLIS } = await import('./agent-clis.js');
      const found = agentClisOnPath();
      if (options.json) process.stdout.write(`${JSON.stringify(found, null, 2)}\n`);
      else if (found.length === 0) {
        process.stdout.write(`no known agent CLI on your PATH (looked for ${AGENT_CLIS.map((c) => c.program).join(', ')})\n`);
      } else {
        const rows = [['NAME', 'FOUND', 'COMMAND'], ...found.map((c) => [c.name, c.path, c.command])];
        process.stdout.write(plainTable(rows));
        process.stdout.write(
          'define one with `tandem agents external add NAME` (user scope) or `… --project` (this folder); nothing is defined until you do\n',
        );
      }
      context.done(0);
    });
  external
    .command('add')
    .description("write an agent CLI's default definition: <data-dir>/agents/NAME.md, or .tandem/agents/NAME.md with --project")
    .argument('<name>', 'claude, codex, opencode or gemini')
    .option('--project', "this folder's .tandem/agents instead of the user's")
    .option('--cwd <dir>', 'the folder for --project (default: the current directory)')
    .option('--data-dir <dir>', 'the local data directory (default $TANDEM_DATA_DIR or ~/.tandem)')
    .action(async (name: string, options: { project?: boolean; cwd?: string; dataDir?: string }) => {
      const [{ AGENT_CLIS, findOnPath, writeAgentCliDefinition }, { join }, { workspaceDir }] = await Promise.all([
        import('./agent-clis.js'),
        import('node:path'),
        import('../workspace.js'),
      ]);
      const cli = AGENT_CLIS.find((c) => c.name === name);
      if (!cli) throw new Error(`no known agent CLI named "${name}"; known: ${AGENT_CLIS.map((c) => c.name).join(', ')} (write other definitions by hand)`);
      const dir = options.project ? join(workspaceDir(options.cwd), '.tandem', 'agents') : join(context.dataDirOf(options.dataDir), 'agents');
      const file = writeAgentCliDefinition(cli, dir);
      const where = findOnPath(cli.program);
      process.stdout.write(
        `wrote ${file}\n  command: ${cli.command}\n${where ? '' : `  note: ${cli.program} is not on your PATH now\n`}the commander can dispatch_to ${cli.name} from the next turn; address it with @${cli.name}\n`,
      );
      context.done(0);
    });
}

/** The table: one row per file; an invalid or shadowed one says why in its last column. */
export function formatAgents(entries: readonly AgentEntry[], home = ''): string {
  if (entries.length === 0)
    return 'no agents: add a file NAME.md with frontmatter (name, description) and a system prompt under .tandem/agents or <data-dir>/agents\n';
  const rows = [
    ['NAME', 'STATUS', 'MODEL', 'TOOLS', 'INTERACTIVE', 'FILE', 'DESCRIPTION'],
    ...entries.map((e) => [
      e.name,
      e.status,
      e.status === 'invalid' ? '-' : e.command ? 'external' : (e.model ?? (e.modelAlias ? `${e.modelAlias} (session's provider)` : 'session')),
      e.status === 'invalid' ? '-' : e.tools ? e.tools.join(',') : 'all',
      e.status === 'invalid' ? '-' : e.interactive ? 'yes' : 'no',
      tildePath(e.file, home),
      e.error ? note(e) : shorten(e.description.replace(/\s+/g, ' ')),
    ]),
  ];
  return plainTable(rows);
}

function note(entry: AgentEntry): string {
  const error = entry.error!;
  return entry.status === 'shadowed' ? `shadowed: ${error.message}` : `invalid: ${error.field ? `field \`${error.field}\`: ` : ''}${error.message}`;
}

function shorten(text: string): string {
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;
}
