import type { ConnectionArgs } from '../connection-args.js';
import { formatSessionTable } from '../session-table.js';
import { withClient } from './with-client.js';

/** `tandem ls`: the server's sessions as a plain table (or JSON with --json). */
export async function listSessions(args: ConnectionArgs & { json?: boolean | undefined; out?: NodeJS.WritableStream }): Promise<number> {
  const { sessions } = await withClient(args, 'ls', (client) => client.request('session:list', {}));
  const out = args.out ?? process.stdout;
  out.write(args.json ? `${JSON.stringify(sessions, null, 2)}\n` : formatSessionTable(sessions));
  return 0;
}
