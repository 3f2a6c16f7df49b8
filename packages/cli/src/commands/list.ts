import { TandemClient } from '@tandem/tui';
import { resolveConnection } from '../connection-args.js';
import { formatSessionTable } from '../session-table.js';

export interface ListOptions {
  url?: string | undefined;
  token?: string | undefined;
  dataDir: string;
  json?: boolean | undefined;
  name: string;
  out?: NodeJS.WritableStream;
}

/** `tandem ls`: the server's sessions as a plain table (or JSON with --json). */
export async function listSessions(options: ListOptions): Promise<number> {
  const { url, token } = await resolveConnection(options);
  const client = new TandemClient(url, { token, name: options.name });
  try {
    await client.ready(5_000);
    const { sessions } = await client.request('session:list', {});
    const out = options.out ?? process.stdout;
    out.write(options.json ? `${JSON.stringify(sessions, null, 2)}\n` : formatSessionTable(sessions));
    return 0;
  } finally {
    client.close();
  }
}
