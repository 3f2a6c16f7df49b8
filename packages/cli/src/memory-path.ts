import { createHash } from 'node:crypto';
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/**
 * Where the server keeps a workspace's memory: `<dataDir>/memory/<first 16 hex of
 * sha256(realpath(workspace))>/MEMORY.md` (the server's data dir layout; see its README).
 * A workspace that does not exist hashes its resolved path, as the server does.
 */
export async function memoryFileFor(dataDir: string, workspace: string): Promise<{ dir: string; file: string; workspace: string }> {
  const resolved = resolve(workspace);
  const canonical = await realpath(resolved).catch(() => resolved);
  const hash = createHash('sha256').update(canonical).digest('hex').slice(0, 16);
  const dir = join(resolve(dataDir), 'memory', hash);
  return { dir, file: join(dir, 'MEMORY.md'), workspace: canonical };
}

/** Creates the memory directory like the server does (0700, with workspace.txt naming its workspace). */
export async function ensureMemoryDir(dir: string, workspace: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFile(join(dir, 'workspace.txt'), `${workspace}\n`, { mode: 0o600 });
}
