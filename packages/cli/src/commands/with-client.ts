import { TandemClient } from '@tandem/tui/client';
import { resolveConnection, type ConnectionArgs } from '../connection-args.js';
import { defaultClientName } from '../client-name.js';

/** Runs `work` with a connected client (URL and token resolved like `tandem attach`), then closes it. */
export async function withClient<T>(args: ConnectionArgs, label: string, work: (client: TandemClient) => Promise<T>): Promise<T> {
  const { url, token, ca } = await resolveConnection(args);
  const client = new TandemClient(url, { token, name: `${defaultClientName()} (${label})`, ...(ca ? { ca } : {}) });
  try {
    await client.ready(5_000);
    return await work(client);
  } finally {
    client.close();
  }
}
