import { realpathSync } from 'node:fs';
import { mostRecent } from '@tandem/tui';
import type { ConnectionArgs } from '../connection-args.js';
import { workspaceDir } from '../workspace.js';
import { withClient } from './with-client.js';

/**
 * `tandem undo [SESSION] [--turns N]`: takes the last N turns of a session back (default: this
 * folder's newest session, one turn), files and conversation, as `/undo` does in the TUI. Files
 * changed since by someone else are left alone and listed. Attaches as a driver for the moment.
 */
export async function undoTurns(
  args: ConnectionArgs & { session?: string; turns?: number; json?: boolean; cwd?: string; out?: NodeJS.WritableStream },
): Promise<number> {
  const out = args.out ?? process.stdout;
  const result = await withClient({ ...args, viewer: false }, 'undo', async (client) => {
    const { sessions } = await client.request('session:list', {});
    let session = args.session ? sessions.find((s) => s.id === args.session) : undefined;
    if (args.session && !session) {
      const matches = sessions.filter((s) => s.id.startsWith(args.session!));
      if (matches.length !== 1)
        throw new Error(
          matches.length > 1
            ? `session id "${args.session}" matches ${matches.length} sessions; give more characters`
            : `no session "${args.session}" on this server; tandem ls lists the sessions`,
        );
      session = matches[0];
    }
    if (!session) {
      const dir = realOf(workspaceDir(args.cwd));
      session = mostRecent(sessions.filter((s) => realOf(s.cwd) === dir));
      if (!session) throw new Error(`no session for ${dir} on this server; give the session id (tandem ls lists them)`);
    }
    await client.request('session:attach', { sessionId: session.id, role: 'driver', tail: 1 });
    try {
      const undone = await client.request('session:undo', { sessionId: session.id, ...(args.turns ? { turns: args.turns } : {}) });
      return { session, ...undone };
    } finally {
      await client.request('session:detach', { sessionId: session.id }).catch(() => undefined);
    }
  });
  const turns = args.turns ?? 1;
  if (args.json) {
    out.write(`${JSON.stringify({ sessionId: result.session.id, turns, files: result.files, conflicts: result.conflicts })}\n`);
    return 0;
  }
  out.write(
    `undid the last ${turns === 1 ? 'turn' : `${turns} turns`} of session ${result.session.id.slice(0, 8)} (${result.session.title}): conversation back to before ${turns === 1 ? 'it' : 'them'}\n`,
  );
  out.write(result.files.length > 0 ? `restored ${result.files.length} file(s):\n${result.files.map((f) => `  ${f}\n`).join('')}` : 'no files to restore\n');
  if (result.conflicts.length > 0)
    out.write(`left alone (changed since by someone else):\n${result.conflicts.map((c) => `  ${c.path}: ${c.reason}\n`).join('')}`);
  return 0;
}

function realOf(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}
