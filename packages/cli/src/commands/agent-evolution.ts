import type { Command } from 'commander';
import type { CommandResult } from '@tandem/shared';
import { plainTable } from '../plain-table.js';
import type { AgentsCommandContext } from './agents-context.js';

type EvolutionRecord = CommandResult<'agents:evolution'>['records'][number];

interface Flags {
  runNow?: boolean;
  revert?: string;
  json?: boolean;
  cwd?: string;
  url?: string;
  token?: string;
  dataDir?: string;
}

/**
 * `tandem agents evolution NAME [--run-now | --revert ID] [--json]`: what the reflections of a
 * self-evolving agent (`evolve: true`) changed. Listing reads the data directory; `--run-now`
 * (a reflection at once) and `--revert ID` ask the running server, which owns the model chain
 * and tells the sessions.
 */
export function registerEvolutionCommand(agents: Command, context: AgentsCommandContext): void {
  agents
    .command('evolution')
    .description('list what the reflections of an agent with evolve: true changed; --run-now reflects at once, --revert ID puts one back')
    .argument('<name>', 'the agent')
    .option('--run-now', 'run a reflection now, whatever the score and the interval (through the local server)')
    .option('--revert <id>', "put back what reflection ID changed in the agent's skills and profile")
    .option('--json', 'print JSON')
    .option('--cwd <dir>', "where the agent's definition is looked up (default: the current directory)")
    .option('--url <url>', 'server URL (default: the local server from <data-dir>/server.json)')
    .option('--token <token>', 'a token of that server (default: from the data directory)')
    .option('--data-dir <dir>', 'the local data directory (default $TANDEM_DATA_DIR or ~/.tandem)')
    .action(async (name: string, flags: Flags) => {
      const dataDir = context.dataDirOf(flags.dataDir);
      if (!flags.runNow && !flags.revert) {
        const { evolutionRecords } = await import('@tandem/server');
        const records = evolutionRecords(dataDir, name);
        process.stdout.write(flags.json ? `${JSON.stringify(records, null, 2)}\n` : formatEvolution(name, records));
        context.done(0);
        return;
      }
      if (flags.runNow && flags.revert) throw new Error('give --run-now or --revert ID, not both');
      const [{ withClient }, { workspaceDir }] = await Promise.all([import('./with-client.js'), import('../workspace.js')]);
      const answer = await withClient({ url: flags.url, token: flags.token, dataDir }, 'agents', (client) =>
        client.request(
          'agents:evolution',
          {
            name,
            cwd: workspaceDir(flags.cwd),
            ...(flags.runNow ? { runNow: true } : {}),
            ...(flags.revert ? { revert: flags.revert } : {}),
          },
          300_000,
        ),
      );
      const record = answer.ran ?? answer.reverted;
      if (flags.json) process.stdout.write(`${JSON.stringify(record ?? answer.records, null, 2)}\n`);
      else if (record) process.stdout.write(answer.reverted ? `reverted ${record.id}: its changes to ${name} are put back\n` : describeReflection(record));
      context.done(record?.status === 'failed' && !answer.reverted ? 1 : 0);
    });
}

/** One reflection, in a few lines. */
export function describeReflection(r: EvolutionRecord): string {
  const lines = [
    `reflection ${r.id} of ${r.agent}: ${r.status}${r.model ? ` (${r.model}, ${r.tokens} tokens)` : ''}; ${r.signals} signal(s), score ${r.score}`,
  ];
  if (r.summary) lines.push(`  ${r.summary}`);
  for (const c of r.changes) lines.push(`  ${c.kind === 'skill_created' ? '+' : '~'} ${c.kind.replace('_', ' ')}: ${c.name}`);
  for (const note of r.notes) lines.push(`  note: ${note}`);
  if (r.changes.length > 0) lines.push(`  undo with: tandem agents evolution ${r.agent} --revert ${r.id}`);
  return `${lines.join('\n')}\n`;
}

export function formatEvolution(name: string, records: readonly EvolutionRecord[]): string {
  if (records.length === 0)
    return `no reflections of ${name} yet (an agent with evolve: true reflects once its signals pass the threshold; --run-now reflects at once)\n`;
  const rows = [
    ['ID', 'AT', 'TRIGGER', 'STATUS', 'CHANGES', 'SUMMARY'],
    ...records.map((r) => [
      r.id,
      r.at.replace(/\.\d{3}Z$/, 'Z'),
      r.trigger,
      r.revertedAt ? `${r.status} (reverted)` : r.status,
      r.changes.map((c) => `${c.kind.replace('_', ' ')} ${c.name}`).join(', ') || '-',
      r.summary || r.notes.join('; '),
    ]),
  ];
  return plainTable(rows);
}
