import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { checkNodeId } from './cluster-options.js';

export const NODE_ID_FILE = 'node-id';

/**
 * The node id kept in the data directory (made once from the host name): a node restarted on the
 * same data directory comes back under the same id and takes its sessions back.
 */
export async function defaultNodeId(dataDir: string): Promise<string> {
  const file = join(dataDir, NODE_ID_FILE);
  const kept = await readFile(file, 'utf8').then(
    (text) => text.trim(),
    () => undefined,
  );
  if (kept) return checkNodeId(kept);
  const base =
    hostname()
      .replace(/[^A-Za-z0-9._-]/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '')
      .slice(0, 48) || 'node';
  const id = `${base}-${randomBytes(3).toString('hex')}`;
  await writeFile(file, `${id}\n`, { mode: 0o600 });
  return id;
}
