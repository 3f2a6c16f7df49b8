import { chooseSession } from '@tandem/tui';
import type { ConnectionArgs } from '../connection-args.js';
import { withClient } from './with-client.js';

/** `tandem memory [SESSION]`: the long-term memory (MEMORY.md) and history (HISTORY.md) a session sees. */
export async function showMemory(args: ConnectionArgs & { session?: string | undefined; out?: NodeJS.WritableStream }): Promise<number> {
  const result = await withClient(args, 'memory', async (client) => {
    const session = await chooseSession(client, { sessionId: args.session, cwd: args.session ? undefined : process.cwd(), viewer: true });
    return client.request('memory:show', { sessionId: session.id });
  });
  const out = args.out ?? process.stdout;
  out.write(`# MEMORY.md\n\n${result.memory.trim() || '(empty)'}\n\n# HISTORY.md\n\n${result.history.trim() || '(empty)'}\n`);
  return 0;
}
