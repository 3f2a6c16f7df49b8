import type { Command } from 'commander';
import type { PackageChange, PackageListing } from '@tandem/server';
import { plainTable } from '../plain-table.js';

export interface PackagesCommandContext {
  dataDirOf(flag: string | undefined): string;
  done(code: number): void;
}

const DATA_DIR_HELP = 'the local data directory (default $TANDEM_DATA_DIR or ~/.tandem)';

/**
 * `tandem packages add | ls | update | rm`: external packages, git repositories cloned into
 * `<data-dir>/packages/NAME` and recorded in `<data-dir>/packages.json` (no server needed; a
 * running server sees the change at its next turn).
 */
export function registerPackagesCommands(program: Command, context: PackagesCommandContext): void {
  const packages = program.command('packages').description('external packages (git repositories of skills and command-line tools): add, ls, update, rm');
  packages
    .command('add')
    .description('clone a repository (https://, ssh://, git@host:path or a local path) into <data-dir>/packages/NAME')
    .argument('<source>', 'the repository')
    .option('--name <name>', 'the package name (default: from the source)')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action(async (source: string, options: { name?: string; dataDir?: string }) => {
      const { ExternalPackages } = await import('@tandem/server');
      const service = new ExternalPackages(context.dataDirOf(options.dataDir));
      const change = await service.add({ source, cwd: process.cwd(), ...(options.name !== undefined ? { name: options.name } : {}) });
      process.stdout.write(describeChange('added', change, service.registry.binDir));
      context.done(0);
    });
  packages
    .command('ls')
    .description('list the packages: name, kind, commit, executables, skills, dependency install, source')
    .option('--json', 'print JSON')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action(async (options: { json?: boolean; dataDir?: string }) => {
      const { ExternalPackages } = await import('@tandem/server');
      const service = new ExternalPackages(context.dataDirOf(options.dataDir));
      const list = service.list();
      if (service.registry.problem) process.stderr.write(`tandem: ${service.registry.problem}\n`);
      process.stdout.write(options.json ? `${JSON.stringify(list, null, 2)}\n` : formatPackages(list));
      context.done(service.registry.problem ? 1 : 0);
    });
  packages
    .command('update')
    .description("pull a package's default branch and scan it again (refused, and left as it was, if the new head holds a symbolic link)")
    .argument('<name>', 'the package')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action(async (name: string, options: { dataDir?: string }) => {
      const { ExternalPackages } = await import('@tandem/server');
      const service = new ExternalPackages(context.dataDirOf(options.dataDir));
      const change = await service.update(name);
      const same = change.previousCommit === change.entry.commit;
      process.stdout.write(
        describeChange(same ? 'already up to date:' : `updated from ${change.previousCommit?.slice(0, 12)}:`, change, service.registry.binDir),
      );
      context.done(0);
    });
  packages
    .command('rm')
    .description('remove a package: its folder, its shims in <data-dir>/bin and its entry')
    .argument('<name>', 'the package')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action(async (name: string, options: { dataDir?: string }) => {
      const { ExternalPackages } = await import('@tandem/server');
      const removed = new ExternalPackages(context.dataDirOf(options.dataDir)).remove(name);
      const shims = removed.shims.length > 0 ? ` and its shims (${removed.shims.join(', ')})` : '';
      process.stdout.write(`removed package "${name}": ${removed.dir}${shims}\n`);
      context.done(0);
    });
}

/** What add or update did, in a few lines. */
export function describeChange(verb: string, change: PackageChange, binDir: string): string {
  const { entry } = change;
  const lines = [`${verb} package "${entry.name}" (${entry.kind}) at ${entry.commit.slice(0, 12)} from ${entry.source}`];
  if (entry.skills.length > 0) lines.push(`  skills: ${entry.skills.join(', ')} (they join the skill roots at the next turn)`);
  if (change.shims.length > 0) lines.push(`  commands: ${change.shims.join(', ')} (shims in ${binDir}, first on the PATH of every command)`);
  for (const note of change.notes) lines.push(`  note: ${note}`);
  const install = entry.install;
  if (install?.status === 'pending') {
    lines.push(`  dependencies: \`${install.command}\` runs in the sandbox after a driver approves it; the next turn of any session asks, once`);
  } else if (install) {
    lines.push(`  dependencies: \`${install.command}\` ${install.status}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The `ls` table. */
export function formatPackages(list: readonly PackageListing[]): string {
  if (list.length === 0) return 'no packages: add one with `tandem packages add SOURCE` (an https://, ssh://, git@host:path or local git repository)\n';
  const rows = [
    ['NAME', 'KIND', 'COMMIT', 'COMMANDS', 'SKILLS', 'DEPENDENCIES', 'SOURCE'],
    ...list.map((p) => [
      p.status === 'missing' ? `${p.name} (folder missing)` : p.name,
      p.kind,
      p.commit.slice(0, 12),
      p.bins.map((b) => b.name).join(',') || '-',
      String(p.skills.length),
      p.install ? p.install.status : '-',
      p.source,
    ]),
  ];
  return plainTable(rows);
}
