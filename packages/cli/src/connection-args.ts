import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TOKEN_FILE, VIEW_TOKEN_FILE } from '@tandem/server/local';
import { findRunningServer, localCa } from './local-server.js';
import { trustedCa } from './trusted-ca.js';

export interface ConnectionArgs {
  url?: string | undefined;
  token?: string | undefined;
  viewer?: boolean | undefined;
  dataDir: string;
  /** `--ca FILE`: a certificate (PEM) to trust for an https:// server, e.g. a self-signed one. */
  ca?: string | undefined;
}

export interface Connection {
  url: string;
  token: string;
  /** What to trust for an https:// server (--ca, or the local server's own certificate). */
  ca?: string[];
}

/**
 * URL and token for a client command: the flags when given; else the local server from
 * `<dataDir>/server.json` and the token kept beside it (the view token for --viewer when
 * there is one). Throws an Error that says what to pass instead.
 */
export async function resolveConnection(args: ConnectionArgs): Promise<Connection> {
  const local = args.url ? undefined : await findRunningServer(args.dataDir);
  const url = args.url ?? local?.url;
  if (!url) {
    throw new Error(
      `no local tandem server is running (nothing answers for ${join(args.dataDir, 'server.json')}); run \`tandem\` or \`tandem serve\`, or pass --url`,
    );
  }
  const token = args.token ?? envToken(args.viewer) ?? (await storedToken(args.dataDir, args.viewer));
  if (!token) {
    throw new Error(`no token: pass --token, set TANDEM_TOKEN, or run where the server keeps ${join(args.dataDir, TOKEN_FILE)}`);
  }
  const ca = args.ca ? await trustedCa(args.ca) : local ? await localCa(local) : undefined;
  return { url, token, ...(ca ? { ca } : {}) };
}

function envToken(viewer: boolean | undefined): string | undefined {
  const value = (viewer ? process.env.TANDEM_VIEW_TOKEN : undefined) ?? process.env.TANDEM_TOKEN;
  return value?.trim() || undefined;
}

async function storedToken(dataDir: string, viewer: boolean | undefined): Promise<string | undefined> {
  const files = viewer ? [VIEW_TOKEN_FILE, TOKEN_FILE] : [TOKEN_FILE];
  for (const file of files) {
    const text = await readFile(join(dataDir, file), 'utf8').catch(() => '');
    if (text.trim()) return text.trim();
  }
  return undefined;
}
