import { chooseSession } from '@tandem/tui';
import type { ConnectionArgs } from '../connection-args.js';
import { withClient } from './with-client.js';

/** `tandem rm SESSION`: deletes a session (log and index entry); the server refuses while a turn runs. */
export async function removeSession(args: ConnectionArgs & { session: string; out?: NodeJS.WritableStream }): Promise<number> {
  const out = args.out ?? process.stdout;
  const session = await withClient({ ...args, viewer: false }, 'rm', async (client) => {
    const found = await chooseSession(client, { sessionId: args.session });
    try {
      await client.request('session:delete', { sessionId: found.id });
    } catch (err) {
      if ((err as { code?: string }).code === 'conflict') {
        throw new Error(`session ${found.id.slice(0, 8)} (${found.title}) is running a turn; cancel it or wait for it to end, then run \`tandem rm\` again`);
      }
      throw err;
    }
    return found;
  });
  out.write(`deleted session ${session.id} (${session.title}, ${session.cwd})\n`);
  return 0;
}
