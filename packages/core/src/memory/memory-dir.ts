import { createHash } from 'node:crypto';
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const MEMORY_FILE = 'MEMORY.md';
export const HISTORY_FILE = 'HISTORY.md';
export const ITEMS_FILE = 'items.jsonl';
export const QUARANTINE_FILE = 'quarantine.jsonl';
export const WORKSPACE_FILE = 'workspace.txt';

/** The workspace's canonical path: its realpath, or the resolved path when it does not exist. */
export async function canonicalWorkspace(workspace: string): Promise<string> {
  const resolved = path.resolve(workspace);
  try {
    return await realpath(resolved);
  } catch {
    return resolved;
  }
}

/**
 * `<dataDir>/memory/<hash>`, one directory per workspace (requirements H1). The hash is the first 16
 * hex digits of SHA-256 of the workspace's realpath, so a symlinked path shares the memory.
 */
export async function memoryDirFor(dataDir: string, workspace: string): Promise<string> {
  const canonical = await canonicalWorkspace(workspace);
  const hash = createHash('sha256').update(canonical).digest('hex').slice(0, 16);
  return path.join(path.resolve(dataDir), 'memory', hash);
}

/** Creates the workspace's memory directory (mode 0700) and records which path it belongs to. */
export async function ensureMemoryDir(dataDir: string, workspace: string): Promise<string> {
  const dir = await memoryDirFor(dataDir, workspace);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFile(path.join(dir, WORKSPACE_FILE), `${await canonicalWorkspace(workspace)}\n`, { mode: 0o600 });
  return dir;
}

/** The MEMORY.md path `tandem memory edit` opens in $EDITOR. */
export async function memoryFilePath(dataDir: string, workspace: string): Promise<string> {
  return path.join(await memoryDirFor(dataDir, workspace), MEMORY_FILE);
}
