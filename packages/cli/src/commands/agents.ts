import type { Command } from 'commander';
import type { AgentEntry } from '@tandem/server';
import { plainTable } from '../plain-table.js';
import { tildePath } from '../session-table.js';

export interface AgentsCommandContext {
  dataDirOf(flag: string | undefined): string;
  done(code: number): void;
}

const MAX_DESCRIPTION = 80;

/**
 * `tandem agents`: every agent file of this folder (`.tandem/agents`) and of the user
 * (`<data-dir>/agents`), read from disk (no server needed). Invalid files are listed and also
 * reported on stderr with the file and the field; the exit code is then 1.
 */
export function registerAgentsCommand(program: Command, context: AgentsCommandContext): void {
  program
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
      e.status === 'invalid' ? '-' : (e.model ?? (e.modelAlias ? `${e.modelAlias} (session's provider)` : 'session')),
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
