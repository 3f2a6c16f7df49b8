import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { chooseSession, fetchSessionEvents, mostRecent, type TandemClient, transcriptJson, transcriptMarkdown } from '@tandem/tui';
import type { ConnectionArgs } from '../connection-args.js';
import { workspaceDir } from '../workspace.js';
import { withClient } from './with-client.js';

export interface ExportArgs extends ConnectionArgs {
  session?: string | undefined;
  format: 'md' | 'json';
  output?: string | undefined;
  cwd?: string | undefined;
  out?: NodeJS.WritableStream;
  err?: NodeJS.WritableStream;
}

/**
 * `tandem export [SESSION] [--format md|json] [-o FILE]`: the whole session from the server's log
 * (any token that may watch it will do), to stdout or a file.
 */
export async function exportSession(args: ExportArgs): Promise<number> {
  const out = args.out ?? process.stdout;
  const err = args.err ?? process.stderr;
  const { text, events, session } = await withClient({ ...args, viewer: args.viewer ?? true }, 'export', async (client) => {
    const session = args.session ? await chooseSession(client, { sessionId: args.session }) : await folderSession(client, workspaceDir(args.cwd));
    const events = await fetchSessionEvents((command, payload, timeoutMs) => client.request(command, payload, timeoutMs), session.id);
    return { session, events, text: args.format === 'json' ? transcriptJson(session, events) : transcriptMarkdown(session, events) };
  });
  if (args.output) {
    const path = resolve(args.output);
    await writeFile(path, text);
    err.write(`tandem: session ${session.id.slice(0, 8)} (${session.title}): ${events.length} events written to ${path}\n`);
  } else {
    out.write(text);
  }
  return 0;
}

async function folderSession(client: TandemClient, cwd: string) {
  const { sessions } = await client.request('session:list', {});
  const latest = mostRecent(sessions.filter((session) => session.cwd === cwd));
  if (!latest) throw new Error(`no session for ${cwd}; name one (tandem ls lists them) or pass --cwd`);
  return latest;
}
