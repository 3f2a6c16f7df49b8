import { chooseSession } from '@tandem/tui/session-choice';
import type { ConnectionArgs } from '../connection-args.js';
import { withClient } from './with-client.js';

/**
 * `tandem rm SESSION`: deletes a session (log and index entry); the server refuses while a turn
 * runs. A session listed `offline` (its cluster node is gone) leaves the cluster's list only: its
 * node's data directory is not touched, and the server refuses while a node holds its lease.
 */
export async function removeSession(args: ConnectionArgs & { session: string; out?: NodeJS.WritableStream }): Promise<number> {
  const out = args.out ?? process.stdout;
  const { session, offline } = await withClient({ ...args, viewer: false }, 'rm', async (client) => {
    const found = await chooseSession(client, { sessionId: args.session });
    const offline = found.status === 'offline';
    try {
      await client.request('session:delete', { sessionId: found.id });
    } catch (err) {
      if ((err as { code?: string }).code === 'conflict') {
        const reason = offline
          ? (err as Error).message
          : `session ${found.id.slice(0, 8)} (${found.title}) is running a turn; cancel it or wait for it to end, then run \`tandem rm\` again`;
        throw new Error(reason);
      }
      throw err;
    }
    return { session: found, offline };
  });
  out.write(
    offline
      ? `removed offline session ${session.id} (${session.title}, ${session.cwd}) from the cluster's list; its log and data on the node that ran it are not touched (start that node again and it is listed again)\n`
      : `deleted session ${session.id} (${session.title}, ${session.cwd})\n`,
  );
  return 0;
}
