import { realpath } from 'node:fs/promises';
import path from 'node:path';

/**
 * The key stored permissions are filed under: the workspace's real path, so a symlinked
 * checkout and its target share decisions. A directory that does not exist (yet) keys by its
 * resolved path.
 */
export async function workspaceKey(dir: string): Promise<string> {
  const resolved = path.resolve(dir);
  try {
    return await realpath(resolved);
  } catch {
    return resolved;
  }
}
