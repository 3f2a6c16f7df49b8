import { readFile, rm, writeFile, chmod } from 'node:fs/promises';
import { join } from 'node:path';

export const SERVER_INFO_FILE = 'server.json';

/** What a running local server leaves in its data dir, so `tandem` can find it. */
export interface ServerInfo {
  url: string;
  pid: number;
  startedAt: string;
  /**
   * The certificate and key files of a server started with --tls-cert/--tls-key: a restart keeps
   * them, and local clients trust this certificate (a self-signed one included).
   */
  tls?: { cert: string; key: string };
}

export async function writeServerInfo(dataDir: string, info: ServerInfo): Promise<void> {
  const path = join(dataDir, SERVER_INFO_FILE);
  await writeFile(path, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
  await chmod(path, 0o600);
}

export async function removeServerInfo(dataDir: string, pid = process.pid): Promise<void> {
  // Only remove our own: another server may have taken over the data dir since.
  const current = await readServerInfo(dataDir, { checkAlive: false });
  if (current && current.pid !== pid) return;
  await rm(join(dataDir, SERVER_INFO_FILE), { force: true });
}

/**
 * The running server recorded in `<dataDir>/server.json`; undefined when there is none, the
 * file is unreadable, or (by default) its process is gone (a stale file from a crash).
 */
export async function readServerInfo(dataDir: string, options: { checkAlive?: boolean } = {}): Promise<ServerInfo | undefined> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(join(dataDir, SERVER_INFO_FILE), 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.url !== 'string' || typeof v.pid !== 'number' || typeof v.startedAt !== 'string') return undefined;
  const info: ServerInfo = { url: v.url, pid: v.pid, startedAt: v.startedAt };
  const tls = v.tls as Record<string, unknown> | undefined;
  if (typeof tls?.cert === 'string' && typeof tls.key === 'string') info.tls = { cert: tls.cert, key: tls.key };
  if (options.checkAlive !== false && !processAlive(info.pid)) return undefined;
  return info;
}

/** Whether a process with this pid exists (a zombie counts until its parent reaps it; one of another user's is EPERM, and exists). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
