import type { Command } from 'commander';
import type { RoutineInfo } from '@tandem/shared';
import type { AdminContext } from './admin.js';
import type { ConnectionArgs } from '../connection-args.js';

const DATA_DIR_HELP = 'the local data directory (default $TANDEM_DATA_DIR or ~/.tandem)';
const URL_HELP = 'server URL (default: the local server from <data-dir>/server.json)';

interface Flags {
  url?: string;
  token?: string;
  json?: boolean;
  dataDir?: string;
}

/** `tandem routines [list]` and `tandem routines cancel ID`, over the wire (routine:list / routine:cancel). */
export function registerRoutineCommands(program: Command, context: AdminContext): void {
  const routines = program.command('routines').description('scheduled routines (prompts that run as turns on a schedule)');
  const connection = (cmd: Command) =>
    cmd
      .option('--url <url>', URL_HELP)
      .option('--token <token>', 'a token of that server (default: from the data directory)')
      .option('--data-dir <dir>', DATA_DIR_HELP);
  connection(
    routines.command('list', { isDefault: true }).description('list routines: schedule in words, status, next and last run').option('--json', 'print JSON'),
  ).action(async (options: Flags) => {
    context.done(await listRoutines({ ...options, viewer: true, dataDir: context.dataDirOf(options.dataDir) }));
  });
  connection(
    routines.command('cancel').description('cancel a routine; it will not run again').argument('<id>', 'the routine id, as `tandem routines` shows it'),
  ).action(async (id: string, options: Flags) => {
    context.done(await cancelRoutine(id, { ...options, dataDir: context.dataDirOf(options.dataDir) }));
  });
}

export async function listRoutines(args: ConnectionArgs & { json?: boolean | undefined; out?: NodeJS.WritableStream }): Promise<number> {
  const { withClient } = await import('./with-client.js');
  const { routines } = await withClient(args, 'routines', (client) => client.request('routine:list', {}));
  const out = args.out ?? process.stdout;
  out.write(args.json ? `${JSON.stringify(routines, null, 2)}\n` : formatRoutines(routines));
  return 0;
}

async function cancelRoutine(id: string, args: ConnectionArgs & { out?: NodeJS.WritableStream }): Promise<number> {
  const { withClient } = await import('./with-client.js');
  const { routine } = await withClient(args, 'routines', (client) => client.request('routine:cancel', { id }));
  (args.out ?? process.stdout).write(`cancelled ${routine.name} (${routine.id})\n`);
  return 0;
}

export function formatRoutines(routines: RoutineInfo[]): string {
  if (routines.length === 0) return 'no routines (ask the agent: "every weekday at 9, summarise my inbox")\n';
  return routines
    .map((r) => {
      const lines = [`${r.id}  ${r.name}  ${r.status}  ${r.description} [${r.schedule}, ${r.timezone}]`];
      if (r.nextRunAt) lines.push(`  next: ${r.nextRunAt}`);
      if (r.lastRunAt) lines.push(`  last: ${r.lastRunAt}`);
      if (r.note) lines.push(`  ${r.note}`);
      lines.push(`  session ${r.sessionId}: ${r.prompt.length > 100 ? `${r.prompt.slice(0, 99)}…` : r.prompt}`);
      return lines.join('\n');
    })
    .join('\n')
    .concat('\n');
}
