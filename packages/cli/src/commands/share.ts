import { type Command, InvalidArgumentError } from 'commander';
import type { ShareRole } from '@tandem/shared';
import { SHARE_ROLES } from '@tandem/shared/share-terms';
import { parseShareDuration } from '../share-duration.js';
import type { AdminContext } from './admin.js';

const DATA_DIR_HELP = 'the local data directory (default $TANDEM_DATA_DIR or ~/.tandem)';
const URL_HELP = 'server URL (default: the local server from <data-dir>/server.json)';

export interface ConnectionFlags {
  url?: string;
  token?: string;
  ca?: string;
  dataDir?: string;
}

export interface CreateFlags extends ConnectionFlags {
  role: ShareRole;
  name: string;
  expires: number;
  json?: boolean;
  baseUrl?: string;
  cwd?: string;
}

/**
 * `tandem share [SESSION]`, `tandem share ls`, `tandem share revoke ID`: let one person into one
 * session with a role, list who has been let in, and throw them out (share:create / share:list /
 * share:revoke over the wire, with the control token).
 */
export function registerShareCommands(program: Command, context: AdminContext): void {
  const connection = (cmd: Command) =>
    cmd
      .option('--url <url>', URL_HELP)
      .option('--token <token>', 'the control token of that server (default: from the data directory)')
      .option('--ca <file>', 'a certificate (PEM) to trust for an https:// server')
      .option('--data-dir <dir>', DATA_DIR_HELP);
  const share = connection(
    program
      .command('share')
      .description("let one person into one session with a role; prints a web link, a `tandem attach` line and the token (this folder's session by default)")
      .argument('[session]', 'session id, or a unique prefix of one (default: the current folder’s session)')
      .option(
        '--role <role>',
        `${SHARE_ROLES.join(' | ')}: watch; watch and answer permission requests; also send messages and stop turns`,
        parseRole,
        'viewer',
      )
      .option('--name <name>', 'who it is for: shown to everyone attached, in messages, decisions and the audit', 'guest')
      .option('--expires <duration>', 'how long it lasts: 30m, 2h, 7d … (at most 30d)', parseExpiry, 24 * 3600)
      .option('--base-url <url>', 'the address the other person reaches this server at, for the link (default: the server URL)')
      .option('--cwd <dir>', 'whose session to share when SESSION is not given (default: the current directory)')
      .option('--json', 'print { share, token, url, attach } as JSON'),
  ).action(async (session: string | undefined, options: CreateFlags) => {
    const { createShare } = await import('./share-actions.js');
    context.done(await createShare({ ...options, session, dataDir: context.dataDirOf(options.dataDir) }));
  });
  connection(share.command('ls').description('list the shares: who, which session, role, connected now, expiry').option('--json', 'print JSON')).action(
    async (options: ConnectionFlags & { json?: boolean }) => {
      const { listShares } = await import('./share-actions.js');
      context.done(await listShares({ ...options, dataDir: context.dataDirOf(options.dataDir) }));
    },
  );
  connection(
    share
      .command('revoke')
      .description('end a share now: its connections close and its token stops working')
      .argument('<id>', 'the share id (or a unique prefix), as `tandem share ls` shows it'),
  ).action(async (id: string, options: ConnectionFlags) => {
    const { revokeShare } = await import('./share-actions.js');
    context.done(await revokeShare(id, { ...options, dataDir: context.dataDirOf(options.dataDir) }));
  });
}

function parseRole(value: string): ShareRole {
  const role = SHARE_ROLES.find((r) => r === value.toLowerCase());
  if (!role) throw new InvalidArgumentError(`expected ${SHARE_ROLES.join(', ')}, got "${value}"`);
  return role;
}

function parseExpiry(value: string): number {
  try {
    return parseShareDuration(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}
