import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { plainTable } from '../plain-table.js';

export interface SkillsCommandContext {
  dataDirOf(flag: string | undefined): string;
  done(code: number): void;
}

interface SkillRow {
  name: string;
  status: string;
  root: string;
  dir: string;
  reason?: string;
  command?: string;
}

/** `tandem skills`: every skill folder of this folder's roots, with its root and status (read from disk, no server needed). */
export function registerSkillsCommand(program: Command, context: SkillsCommandContext): void {
  program
    .command('skills')
    .description('list skills (SKILL.md folders) with their root and status: ok, shadowed, invalid, quarantined, refused')
    .option('--cwd <dir>', 'whose project skills to list (default: the current directory)')
    .option('--json', 'print JSON')
    .option('--data-dir <dir>', 'the local data directory (default $TANDEM_DATA_DIR or ~/.tandem)')
    .action(async (options: { cwd?: string; json?: boolean; dataDir?: string }) => {
      const { WorkspaceSkills } = await import('@tandem/server');
      const skills = new WorkspaceSkills({ dataDir: context.dataDirOf(options.dataDir), home: homedir() });
      const entries = skills.list(resolve(options.cwd ?? process.cwd()));
      process.stdout.write(options.json ? `${JSON.stringify(entries, null, 2)}\n` : formatSkills(entries));
      context.done(0);
    });
}

export function formatSkills(entries: readonly SkillRow[]): string {
  if (entries.length === 0)
    return 'no skills: add a folder with a SKILL.md under .tandem/skills, .agents/skills, <data-dir>/skills, ~/.agents/skills or ~/.claude/skills\n';
  const rows = [
    ['NAME', 'STATUS', 'ROOT', 'NOTE'],
    ...entries.map((e) => [e.name, e.status, e.root, e.reason ?? (e.command ? `tool skill__${e.name}: ${e.command}` : '')]),
  ];
  return plainTable(rows);
}
