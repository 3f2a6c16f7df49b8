import { type Command, InvalidArgumentError } from 'commander';
import type { MemoryFormat } from './memory.js';

export interface AdminContext {
  /** `--data-dir` resolved, or the default data directory. */
  dataDirOf(flag: string | undefined): string;
  done(code: number): void;
}

const DATA_DIR_HELP = 'the local data directory (default $TANDEM_DATA_DIR or ~/.tandem)';
const URL_HELP = 'server URL (default: the local server from <data-dir>/server.json)';

/**
 * `tandem permissions | audit`: thin commander wrappers around the `run…Command` functions
 * @tandem/server exports beside the data they read (no server needed). `tandem models | memory`
 * ask a running server over the wire (models:list, memory:show). Each resolves with an exit
 * code; output goes to stdout.
 */
export function registerAdminCommands(program: Command, context: AdminContext): void {
  const permissions = program.command('permissions').description('stored permission decisions (allow / deny forever)');
  permissions
    .command('list', { isDefault: true })
    .description('list stored decisions (the default: `tandem permissions` alone lists them)')
    .option('--workspace <dir>', "only this workspace's rules")
    .option('--json', 'print JSON')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action(async (options: { workspace?: string; json?: boolean; dataDir?: string }) => {
      const { runPermissionsCommand } = await import('@tandem/server');
      context.done(
        await runPermissionsCommand({
          dataDir: context.dataDirOf(options.dataDir),
          action: 'list',
          ...(options.workspace ? { workspace: options.workspace } : {}),
          json: Boolean(options.json),
          out: process.stdout,
        }),
      );
    });
  permissions
    .command('revoke')
    .description('remove a stored decision')
    .argument('<id>', 'the rule id, as `tandem permissions list` shows it')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action(async (id: string, options: { dataDir?: string }) => {
      const { runPermissionsCommand } = await import('@tandem/server');
      context.done(await runPermissionsCommand({ dataDir: context.dataDirOf(options.dataDir), action: 'revoke', id, out: process.stdout }));
    });

  program
    .command('audit')
    .description('print the audit log (every tool call, its arguments, result and permission decision)')
    .option('--session <id>', 'only this session')
    .option('--tail', 'keep printing new records until Ctrl-C')
    .option('--json', 'one JSON record per line')
    .option('--limit <n>', 'how many recent records to print first (default 50)', parseCount)
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action(async (options: { session?: string; tail?: boolean; json?: boolean; limit?: number; dataDir?: string }) => {
      const { runAuditCommand } = await import('@tandem/server');
      context.done(
        await runAuditCommand({
          dataDir: context.dataDirOf(options.dataDir),
          ...(options.session ? { sessionId: options.session } : {}),
          tail: Boolean(options.tail),
          json: Boolean(options.json),
          ...(options.limit !== undefined ? { limit: options.limit } : {}),
          out: process.stdout,
        }),
      );
    });

  program
    .command('models')
    .description("list the server's model catalog")
    .option('--url <url>', URL_HELP)
    .option('--token <token>', 'a token of that server (default: from the data directory)')
    .option('--json', 'print JSON')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action(async (options: { url?: string; token?: string; json?: boolean; dataDir?: string }) => {
      const { listModels } = await import('./models.js');
      context.done(await listModels({ ...options, viewer: true, dataDir: context.dataDirOf(options.dataDir) }));
    });

  program
    .command('memory')
    .description("a workspace's long-term memory: show (MEMORY.md + HISTORY.md, the default), edit (MEMORY.md in $EDITOR), export (markdown or JSON)")
    .argument('[action]', 'show | edit | export (anything else is taken as a session, for `tandem memory SESSION`)')
    .argument('[session]', 'session id or a unique prefix of one (default: the session for this directory)')
    .option('--session <id>', 'session id or a unique prefix of one')
    .option('--format <format>', 'export as markdown or json', parseFormat, 'markdown' as MemoryFormat)
    .option('--out <file>', 'export: write to FILE (atomically) instead of stdout')
    .option('--workspace <dir>', "edit: the workspace whose MEMORY.md to open (default: the session's, or this directory)")
    .option('--url <url>', URL_HELP)
    .option('--token <token>', 'a token of that server (default: from the data directory)')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action(async (action: string | undefined, positional: string | undefined, options: MemoryOptions) => {
      const known = action === 'show' || action === 'edit' || action === 'export';
      const session = options.session ?? (known ? positional : action);
      if (!known && positional !== undefined) throw new Error(`unknown memory action "${action}": expected show, edit or export`);
      const connection = { url: options.url, token: options.token, viewer: true, dataDir: context.dataDirOf(options.dataDir), session };
      const { editMemory } = await import('./memory-edit.js');
      const { exportMemory, showMemory } = await import('./memory.js');
      if (action === 'edit') return context.done(await editMemory({ ...connection, workspace: options.workspace }));
      if (action === 'export') return context.done(await exportMemory({ ...connection, format: options.format, file: options.out }));
      context.done(await showMemory(connection));
    });
}

interface MemoryOptions {
  session?: string;
  format: MemoryFormat;
  out?: string;
  workspace?: string;
  url?: string;
  token?: string;
  dataDir?: string;
}

function parseFormat(value: string): MemoryFormat {
  if (value === 'markdown' || value === 'md') return 'markdown';
  if (value === 'json') return 'json';
  throw new InvalidArgumentError(`expected markdown or json, got "${value}"`);
}

function parseCount(value: string): number {
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1) throw new InvalidArgumentError(`expected a positive whole number, got "${value}"`);
  return count;
}
